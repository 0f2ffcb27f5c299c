import * as v from 'valibot';
import { SluiceError, type DelegateSettings } from '../../core/index.ts';

const argList = (what: string) => v.optional(v.pipe(v.array(v.string()), v.description(what)));

/** Settings every CLI backend accepts under `delegates.<name>` in sluice.config.yaml. */
export const CliDelegateSettingsEntries = {
  command: v.optional(v.pipe(v.string(), v.minLength(1), v.description('executable: a name looked up on PATH, or a path'))),
  args: argList('extra arguments for every run'),
  writeArgs: argList('extra arguments for write runs only'),
  analysisArgs: argList('extra arguments for analysis runs only (flags that grant write access are refused)'),
  model: v.optional(v.pipe(v.string(), v.description('default model when the request names none'))),
  timeout: v.optional(v.pipe(v.number(), v.minValue(1), v.description('wall clock limit in seconds (default 600)'))),
  env: v.optional(v.pipe(v.record(v.string(), v.string()), v.description('extra environment variables for the CLI'))),
  retries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10), v.description('retries of transient failures (default 2)'))),
  workspaceCheck: v.optional(v.pipe(v.boolean(), v.description('fail an analysis run that changed the project (WORKSPACE_CHANGED); default true'))),
  heartbeat: v.optional(v.pipe(v.number(), v.minValue(0.1), v.description('seconds between "still running" lines on stderr while the CLI works (default 30)'))),
  killGrace: v.optional(v.pipe(v.number(), v.minValue(0), v.description('seconds between SIGTERM and SIGKILL of the process group (default 2)'))),
};

export const ClaudeSettingsSchema = v.looseObject({
  ...CliDelegateSettingsEntries,
  outputFormat: v.optional(v.pipe(v.picklist(['stream-json', 'json']), v.description('stream-json (default, live progress) or json'))),
});

export const AgySettingsSchema = v.looseObject({
  ...CliDelegateSettingsEntries,
  promptVia: v.optional(v.pipe(v.picklist(['auto', 'argv', 'stdin']), v.description('auto (default): -p PROMPT, or stdin when the prompt is over 100 KiB'))),
});

export const CodexSettingsSchema = v.looseObject(CliDelegateSettingsEntries);

export const ShellSettingsSchema = v.looseObject({
  ...CliDelegateSettingsEntries,
  output: v.optional(v.pipe(v.picklist(['text', 'json']), v.description('text (default) or json: stdout parsed as one JSON value'))),
});

/** Checks a backend's settings; a wrong field is CONFIG_INVALID naming `delegates.<name>.<field>`. */
export function checkSettings<S extends v.GenericSchema>(backend: string, schema: S, settings: DelegateSettings): v.InferOutput<S> {
  const r = v.safeParse(schema, settings);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const path = v.getDotPath(issue);
  const field = `delegates.${backend}${path ? `.${path}` : ''}`;
  throw new SluiceError('CONFIG_INVALID', { field, message: `${field}: ${issue.message}` });
}
