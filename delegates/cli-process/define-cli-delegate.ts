import {
  defineDelegate,
  definePlugin,
  type DelegateAttempt,
  type DelegateDefinition,
  type DelegateRequest,
  type DelegateRunContext,
  type Kernel,
  type PluginDefinition,
} from '../../core/index.ts';
import type * as v from 'valibot';
import { checkSettings } from './cli-settings-schema.ts';
import { findExecutable } from './find-executable.ts';

export interface CliDelegateOptions {
  name: string;
  description: string;
  /** Executable looked up on PATH unless `delegates.<name>.command` says otherwise; undefined = must be configured. */
  defaultCommand?: string;
  /** `delegates.<name>` in sluice.config.yaml; checked before every run. */
  settingsSchema: v.GenericSchema;
  /** Load the run code lazily (`await import(...)`), so plugin entries stay light for cold start. */
  run(request: DelegateRequest, ctx: DelegateRunContext, command: string, kernel: Kernel): Promise<DelegateAttempt>;
}

/**
 * A delegate backed by an external CLI: available when its executable is on PATH (checked without a
 * shell), run with the resolved absolute path so availability and execution agree.
 */
export function defineCliDelegate(kernel: Kernel, o: CliDelegateOptions): DelegateDefinition {
  const locate = (settings: DelegateRunContext['settings']) => {
    const command = typeof settings.command === 'string' && settings.command !== '' ? settings.command : o.defaultCommand;
    const pathEnv = settings.env?.PATH ?? kernel.host.env('PATH');
    return { command, found: command === undefined ? Promise.resolve(undefined) : findExecutable(kernel.host, command, pathEnv, kernel.projectRoot) };
  };
  return defineDelegate({
    name: o.name,
    description: o.description,
    async available({ settings }) {
      checkSettings(o.name, o.settingsSchema, settings);
      const { command, found } = locate(settings);
      if (command === undefined) return { ok: false, reason: `set delegates.${o.name}.command in sluice.config` };
      return (await found) ? { ok: true } : { ok: false, reason: `${command} is not an executable on PATH` };
    },
    async run(request, ctx) {
      checkSettings(o.name, o.settingsSchema, ctx.settings);
      const { command, found } = locate(ctx.settings);
      return o.run(request, ctx, (await found) ?? command ?? o.name, kernel);
    },
  });
}

/** The plugin that registers one CLI backend (`sluice:delegate-<name>`). */
export function cliDelegatePlugin(o: CliDelegateOptions): PluginDefinition {
  return definePlugin({
    name: `sluice:delegate-${o.name}`,
    setup(ctx) {
      ctx.registerSchema(`delegate-${o.name}-settings`, o.settingsSchema, `delegates.${o.name} in sluice.config.yaml`);
      ctx.registerDelegate(defineCliDelegate(ctx.kernel, o));
    },
  });
}
