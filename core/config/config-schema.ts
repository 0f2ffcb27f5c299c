import * as v from 'valibot';
import { SandboxModeSchema } from '../sandbox/sandbox-choice.ts';

/** Settings of one delegate backend (`delegates.<name>`). */
export const DelegateSettingsSchema = v.looseObject({
  command: v.optional(v.pipe(v.string(), v.minLength(1))),
  args: v.optional(v.array(v.string())),
  model: v.optional(v.string()),
  timeout: v.optional(v.pipe(v.number(), v.minValue(1), v.description('seconds'))),
  env: v.optional(v.record(v.string(), v.string())),
  retries: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10))),
});

/** `sluice.config.yaml` / `sluice.config.json` at the project root. */
export const SluiceConfigSchema = v.looseObject({
  /** Plugin modules: paths relative to the project, or package names. */
  plugins: v.optional(v.array(v.pipe(v.string(), v.minLength(1))), []),
  /** How many delegate runs and gate checks run at once. */
  concurrency: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.maxValue(256)), 2),
  delegates: v.optional(v.record(v.string(), DelegateSettingsSchema), {}),
  /** Extra profile pack locations (folders or package names). */
  profiles: v.optional(v.array(v.string()), []),
  /** Milliseconds to wait for another process's state lock before exiting with code 3. */
  lockWaitMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0)), 5000),
  /** Where top-level durable jobs go: `redis://HOST:PORT[/DB]` (BullMQ); absent = in this process. */
  queue: v.optional(v.pipe(v.string(), v.regex(/^rediss?:\/\/[^\s/]+(\/\d{1,2})?\/?$/, 'queue must be redis[s]://HOST:PORT[/DB]'))),
  /** The OS sandbox of the AI CLIs sluice runs: `auto` (default) where the machine has one, `required`, or `off`. */
  sandbox: v.optional(SandboxModeSchema),
  /**
   * The largest state file (`.sdlc/state.yaml`) sluice reads or writes, in bytes: a file over it is
   * FILE_TOO_LARGE (exit 2), a write that would pass it is refused. 16 MiB by default (about 4,700 history
   * entries with full gate results); raise it for a long-lived project.
   */
  stateMaxBytes: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1024)), 16 * 1024 * 1024),
  /** Milliseconds a plugin's setup may take. */
  pluginTimeoutMs: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1)), 10000),
});

export type SluiceConfig = v.InferOutput<typeof SluiceConfigSchema>;

export const defaultConfig = (): SluiceConfig => v.parse(SluiceConfigSchema, {});
