import { defineDelegate, definePlugin, type DelegateDefinition, type Kernel } from '../../core/index.ts';
import { resolveScriptSource } from './script-file.ts';
import { DelegateScriptSchema } from './script-schema.ts';
import { scriptErrors } from './script-errors.ts';

export { resetSequences, sequenceDir, sequenceStatePath } from './script-sequence.ts';

/** The `script` backend: replays scripted answers from a YAML file, matched by prompt pattern. */
export function createScriptDelegate(kernel: Kernel): DelegateDefinition {
  return defineDelegate({
    name: 'script',
    description: 'replays scripted answers from a YAML file (demo, dry runs, pipeline tests)',
    inProcess: true,
    async available({ host, settings }) {
      const source = resolveScriptSource(kernel.projectRoot, host, settings);
      if (!source) return { ok: true, reason: 'no default script; each run names one in extra.script' };
      const info = await host.stat(source.path);
      return info?.kind === 'file' ? { ok: true } : { ok: false, reason: `script ${kernel.display(source.path)} (from ${source.from}) does not exist` };
    },
    async run(request, ctx) {
      const { runScript } = await import('./run-script.ts');
      return runScript(kernel, request, ctx);
    },
  });
}

export const scriptDelegatePlugin = definePlugin({
  name: 'sluice:delegate-script',
  setup(ctx) {
    ctx.registerErrorCodes(scriptErrors);
    ctx.registerSchema('delegate-script', DelegateScriptSchema, 'script delegate file: scripted answers matched by prompt pattern');
    ctx.registerDelegate(createScriptDelegate(ctx.kernel));
  },
});
