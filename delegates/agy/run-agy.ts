import type { DelegateAttempt, DelegateRequest, DelegateRunContext, Kernel } from '../../core/index.ts';
import { meaningfulLine, processFailure, runCliProcess, type CliProcessOutcome } from '../cli-process/index.ts';
import { agyArgs, agyPromptVia, agyStdinPrompt } from './args.ts';
import { judgeAgy, parseAgyJson } from './parse-output.ts';

/**
 * agy keeps per-folder state and misbehaves when two runs share a working directory, so no two
 * runs do: an analysis run gets a fresh scratch folder (the project is added with --add-dir,
 * readable), and write runs, which must work in the project itself, take turns per folder.
 */
export async function runAgy(request: DelegateRequest, ctx: DelegateRunContext, command: string, kernel: Kernel): Promise<DelegateAttempt> {
  const promptVia = agyPromptVia(request.prompt, ctx.settings);
  const run = async (cwd: string, projectDir?: string) => {
    const p = await runCliProcess(
      {
        command,
        args: agyArgs(request, ctx.settings, { timeoutMs: ctx.timeoutMs, promptVia, ...(projectDir ? { projectDir } : {}) }),
        cwd,
        ...(promptVia === 'stdin' ? { input: agyStdinPrompt(request.prompt) } : {}),
      },
      ctx,
    );
    const judged = processFailure('agy', p, ctx.timeoutMs) ?? judgeAgy(p, p.stdout.complete ? parseAgyJson(p.stdout.text) : undefined);
    // Exit 2 is agy refusing its command line: most likely a version without a flag sluice passes.
    if (p.exitCode === 2 && judged.status === 'error') return { ...judged, error: await rejectedFlagMessage(command, ctx, p) };
    return judged;
  };
  if (request.mode === 'write') return kernel.queue.exclusive(`agy:cwd:${request.cwd}`, () => run(request.cwd));
  const scratch = await kernel.host.makeTempDir('sluice-agy-');
  try {
    ctx.transcript.write(`--- agy analysis run in scratch folder ${scratch}; project added with --add-dir\n`);
    return await run(scratch, request.cwd);
  } finally {
    await kernel.host.remove(scratch, { recursive: true });
  }
}

/** The first agy that knows every flag sluice passes (--output-format json, --print-timeout, --mode). */
export const AGY_MIN_VERSION = '1.1.12';

async function rejectedFlagMessage(command: string, ctx: DelegateRunContext, p: CliProcessOutcome): Promise<string> {
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
  const why = meaningfulLine(p.stderrTail);
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
