/**
 * `sluice/delegates`: what a custom CLI-backed delegate needs: define it, run its process with one
 * clock over the whole process group, and keep its output bounded (head and tail) while splitting lines.
 */
export { defineCliDelegate, cliDelegatePlugin, type CliDelegateOptions } from '../delegates/cli-delegate/index.ts';
export { runCliProcess, processFailure, type CliProcessSpec, type CliProcessOutcome } from '../delegates/cli-process/run-cli-process.ts';
export { createBoundedCapture, boundText, MAX_RESULT_TEXT_CHARS, type BoundedCapture } from '../delegates/cli-process/bounded-capture.ts';
export { createLineSplitter, type LineSplitter } from '../delegates/cli-process/line-splitter.ts';
export { findExecutable } from '../delegates/cli-process/find-executable.ts';
