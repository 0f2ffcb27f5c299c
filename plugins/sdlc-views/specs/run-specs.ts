import { resolve } from 'pathe';
import { SluiceError, type CommandContext, type CommandInput, type CommandOutcome } from '../../../core/index.ts';
import { renderSpecBacklog } from './render-spec-backlog.ts';
import { parseCacheDir } from '../../sdlc/index.ts';
import { scanSpecs } from './scan-specs.ts';
import { summarizeSpecs } from './summarize-specs.ts';

/** `--wip-cap N`: a whole number of specs, zero allowed (a freeze). */
export function parseWipCap(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (typeof value !== 'string' || !/^\d+$/.test(value.trim()) || !Number.isSafeInteger(n)) {
    throw new SluiceError('USAGE', { message: `--wip-cap must be a whole number of specs, got ${JSON.stringify(value)}` });
  }
  return n;
}

/**
 * `sluice specs`: the backlog derived from `specs/*.md`. `--repo` is the user's own choice of
 * folder (like --cwd), so it may lie outside the project; it is only read.
 */
export async function runSpecs(input: CommandInput, ctx: CommandContext): Promise<CommandOutcome> {
  const wipCap = parseWipCap(input.options.wipCap);
  const repo = resolve(ctx.cwd, typeof input.options.repo === 'string' ? input.options.repo : '.');
  const backlog = summarizeSpecs(repo, await scanSpecs(ctx.host, repo, { cacheDir: parseCacheDir(ctx.host) }), wipCap);
  const human = renderSpecBacklog(backlog, ctx.io.style);
  if (!backlog.wipCap?.breached) return { exitCode: 0, data: backlog, human };
  const breach = new SluiceError('WIP_CAP_BREACHED', {
    message: `${backlog.wipCap.inFlight} spec${backlog.wipCap.inFlight === 1 ? '' : 's'} in flight, the WIP cap is ${backlog.wipCap.cap}`,
  });
  return {
    exitCode: breach.exitCode,
    data: { ...backlog, error: breach.toJSON() },
    human: `${human}\n${ctx.io.style.red(breach.message)}\n${ctx.io.style.dim(`hint: ${breach.hint}`)}`,
  };
}
