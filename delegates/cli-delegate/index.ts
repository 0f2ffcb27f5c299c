/**
 * The face factory of the CLI-backed delegates (claude, agy, codex, shell): a plugin description whose
 * delegate and settings schema are plain data, and whose process code (cli-process) loads on first use.
 */
import {
  defineDelegate,
  definePlugin,
  type DelegateAttempt,
  type DelegateDefinition,
  type DelegateRequest,
  type DelegateRunContext,
  type Kernel,
  type PluginDefinition,
  type SchemaDeclaration,
} from '../../core/index.ts';
import type * as v from 'valibot';

export interface CliDelegateOptions {
  name: string;
  description: string;
  /** Executable looked up on PATH unless `delegates.<name>.command` says otherwise; undefined = must be configured. */
  defaultCommand?: string;
  /**
   * `delegates.<name>` in sluice.config.yaml, checked before every run: the schema, or a loader for it
   * (`async () => (await import(...)).Schema`) so the plugin's face stays light.
   */
  settingsSchema: v.GenericSchema | (() => Promise<v.GenericSchema>);
  /** Load the run code lazily (`await import(...)`), so plugin entries stay light for cold start. */
  run(request: DelegateRequest, ctx: DelegateRunContext, command: string, kernel: Kernel): Promise<DelegateAttempt>;
}

/**
 * A delegate backed by an external CLI: available when its executable is on PATH (checked without a
 * shell), run with the resolved absolute path so availability and execution agree. The kernel it runs
 * in comes with each call, so the definition is plain data made once.
 */
export function defineCliDelegate(o: CliDelegateOptions): DelegateDefinition {
  const settingsSchema = typeof o.settingsSchema === 'function' ? o.settingsSchema : async () => o.settingsSchema as v.GenericSchema;
  const check = async (settings: DelegateRunContext['settings']) => {
    const [{ checkSettings }, schema] = await Promise.all([import('../cli-process/index.ts'), settingsSchema()]);
    checkSettings(o.name, schema, settings);
  };
  const locate = async (kernel: Kernel, settings: DelegateRunContext['settings']) => {
    const command = typeof settings.command === 'string' && settings.command !== '' ? settings.command : o.defaultCommand;
    const pathEnv = settings.env?.PATH ?? kernel.host.env('PATH');
    if (command === undefined) return { command, found: undefined };
    const { findExecutable } = await import('../cli-process/index.ts');
    return { command, found: await findExecutable(kernel.host, command, pathEnv, kernel.projectRoot) };
  };
  return defineDelegate({
    name: o.name,
    description: o.description,
    async available({ settings, kernel }) {
      await check(settings);
      const { command, found } = await locate(kernel, settings);
      if (command === undefined) return { ok: false, reason: `set delegates.${o.name}.command in sluice.config` };
      return found ? { ok: true } : { ok: false, reason: `${command} is not an executable on PATH` };
    },
    async run(request, ctx) {
      await check(ctx.settings);
      const { command, found } = await locate(ctx.kernel, ctx.settings);
      return o.run(request, ctx, found ?? command ?? o.name, ctx.kernel);
    },
  });
}

/** The plugin that provides one CLI backend (`sluice:delegate-<name>`) and the schema of its settings. */
export function cliDelegatePlugin(o: CliDelegateOptions): PluginDefinition {
  const description = `delegates.${o.name} in sluice.config.yaml`;
  const settings: SchemaDeclaration =
    typeof o.settingsSchema === 'function' ? { description, load: o.settingsSchema } : { description, schema: o.settingsSchema };
  return definePlugin({
    name: `sluice:delegate-${o.name}`,
    schemas: { [`delegate-${o.name}-settings`]: settings },
    delegates: [defineCliDelegate(o)],
  });
}
