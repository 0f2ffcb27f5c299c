import type { DelegateRunContext } from '../../core/index.ts';
import { meaningfulLine, type CliProcessOutcome } from '../cli-process/index.ts';

/** The first agy that knows every flag sluice passes (--output-format json, --print-timeout, --mode). */
export const AGY_MIN_VERSION = '1.1.12';

/**
 * The error of a refused command line. agy prints it first and its whole usage listing after it
 * (Go's flag package: `flag provided but not defined: -x`, then `Usage of agy:` and every flag), so
 * the end of stderr is a flag's help text or a `--help` line, not the error: the error is read from
 * the start of stderr, above the usage listing.
 */
export function usageErrorLine(p: Pick<CliProcessOutcome, 'stderrHead' | 'stderrTail'>): string | undefined {
  const head = p.stderrHead ?? p.stderrTail;
  const lines = head.split(/\r?\n/);
  const usage = lines.findIndex((l) => /^\s*usage\b/i.test(l));
  if (usage > 0) return meaningfulLine(lines.slice(0, usage).join('\n'));
  return meaningfulLine(p.stderrTail);
}

/** `agy 1.1.8 rejected a flag (older than 1.1.12? update agy): flag provided but not defined: -print-timeout`, after asking `agy --version`. */
export async function rejectedFlagMessage(command: string, ctx: DelegateRunContext, p: CliProcessOutcome): Promise<string> {
  let out = '';
  const r = await ctx.host.spawn({
    command,
    args: ['--version'],
    env: { ...ctx.settings.env },
    timeoutMs: 10_000,
    signal: ctx.signal,
    onStdout: (c) => void (out += new TextDecoder().decode(c)),
  });
  const version = r.exitCode === 0 ? /\d+\.\d+\.\d+/.exec(out)?.[0] : undefined;
  const why = usageErrorLine(p);
  const older = version === undefined || compareVersions(version, AGY_MIN_VERSION) < 0;
  const who = `agy${version ? ` ${version}` : ''}`;
  return `${who} rejected a flag${older ? ` (older than ${AGY_MIN_VERSION}? update agy)` : ''}${why ? `: ${why}` : ''}`;
}

function compareVersions(a: string, b: string): number {
  const pa = a.split('.').map(Number);
  const pb = b.split('.').map(Number);
  for (let i = 0; i < 3; i++) if ((pa[i] ?? 0) !== (pb[i] ?? 0)) return (pa[i] ?? 0) - (pb[i] ?? 0);
  return 0;
}
