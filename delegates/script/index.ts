import { defineDelegate, definePlugin, type Kernel } from '../../core/index.ts';
import { scriptErrors } from './script-errors.ts';

/** The `script` backend: replays scripted answers from a YAML file, matched by prompt pattern. */
export const scriptDelegate = defineDelegate({
  name: 'script',
  description: 'replays scripted answers from a YAML file (demo, dry runs, pipeline tests)',
  inProcess: true,
  async available({ host, settings, kernel }) {
    const { resolveScriptSource } = await import('./script-file.ts');
    const source = resolveScriptSource(kernel.projectRoot, host, settings);
    if (!source) return { ok: true, reason: 'no default script; each run names one in extra.script' };
    const info = await host.stat(source.path);
    return info?.kind === 'file' ? { ok: true } : { ok: false, reason: `script ${kernel.display(source.path)} (from ${source.from}) does not exist` };
  },
  async run(request, ctx) {
    const { runScript } = await import('./run-script.ts');
    return runScript(ctx.kernel, request, ctx);
  },
});

/** `sluice delegate --to script --reset`: forgets where each scripted sequence is (the module loads only then). */
export async function resetSequences(kernel: Kernel): Promise<string> {
  return (await import('./script-sequence.ts')).resetSequences(kernel);
}

export const scriptDelegatePlugin = definePlugin({
  name: 'sluice:delegate-script',
  errorCodes: scriptErrors,
  schemas: {
    'delegate-script': {
      description: 'script delegate file: scripted answers matched by prompt pattern',
      load: async () => (await import('./script-schema.ts')).DelegateScriptSchema,
    },
  },
  delegates: [scriptDelegate],
});
