/** What the CLI-backed delegates share: settings, process running with one clock, bounded capture, failure shapes. */
export { boundText } from './bounded-capture.ts';
export { extraArgs, modelOf } from './cli-settings.ts';
export { AgySettingsSchema, ClaudeSettingsSchema, CodexSettingsSchema, ShellSettingsSchema } from './cli-settings-schema.ts';
export { cliDelegatePlugin, defineCliDelegate, type CliDelegateOptions } from '../cli-delegate/index.ts';
export { checkSettings } from './cli-settings-schema.ts';
export { findExecutable } from './find-executable.ts';
export { meaningfulLine } from './failure-message.ts';
export { exitFailureMessage, firstLine, lastLine, processFailure, runCliProcess, type CliProcessOutcome } from './run-cli-process.ts';
export { isTransientFailure } from './transient-failure.ts';
