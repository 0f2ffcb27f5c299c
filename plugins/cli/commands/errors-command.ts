import { defineCommand, listErrorCodes, SluiceError } from '../../../core/index.ts';
import { loadBuiltinErrorCodes } from '../builtin-manifest.ts';
import { ErrorsOutput } from './cli-outputs.ts';

const EXIT_MEANING: Record<number, string> = { 0: 'ok', 1: 'blocked', 2: 'usage', 3: 'busy' };

/** `sluice errors`: every error code of the kernel, of each built-in plugin and of each loaded one, with its owner, exit code and hint. */
export const errorsCommand = defineCommand({
  name: 'errors',
  summary: 'list every error code with the plugin that owns it, its exit code and what to do about it',
  args: ['[code]'],
  examples: ['sluice errors', 'sluice errors LIFECYCLE_RULE', 'sluice errors --json'],
  output: ErrorsOutput,
  async run({ args }, { io }) {
    const wanted = (args[0] as string | undefined)?.toUpperCase();
    await loadBuiltinErrorCodes();
    const codes = listErrorCodes()
      .filter((e) => wanted === undefined || e.code === wanted)
      .map((e) => ({ code: e.code, owner: e.owner, exitCode: e.exit, title: e.title, hint: e.hint }));
    if (wanted !== undefined && codes.length === 0) {
      throw new SluiceError('USAGE', { field: 'code', message: `no error code ${wanted}; run \`sluice errors\` for the list` });
    }
    const s = io.style;
    const width = Math.max(...codes.map((c) => c.code.length));
    const lines: string[] = [];
    let owner = '';
    for (const c of codes) {
      if (c.owner !== owner) lines.push(`${lines.length ? '\n' : ''}${s.bold(c.owner)}`);
      owner = c.owner;
      lines.push(
        `  ${c.code.padEnd(width)}  ${`exit ${c.exitCode} (${EXIT_MEANING[c.exitCode]})`.padEnd(17)}${c.title}`,
        `  ${' '.repeat(width)}  ${s.dim(c.hint)}`,
      );
    }
    return { exitCode: 0, data: { codes }, human: lines.join('\n') };
  },
});
