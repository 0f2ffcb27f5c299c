import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { DelegateAttempt, DelegateRequest, DelegateRunContext, Kernel } from '../../core/index.ts';
import { processFailure, runCliProcess } from '../cli-process/run-cli-process.ts';
import { agyArgs, agyPromptVia } from './args.ts';
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
        ...(promptVia === 'stdin' ? { input: request.prompt } : {}),
      },
      ctx,
    );
    return processFailure('agy', p, ctx.timeoutMs) ?? judgeAgy(p, p.stdout.complete ? parseAgyJson(p.stdout.text) : undefined);
  };
  if (request.mode === 'write') return kernel.queue.exclusive(`agy:cwd:${request.cwd}`, () => run(request.cwd));
  const scratch = await mkdtemp(join(tmpdir(), 'sluice-agy-'));
  try {
    ctx.transcript.write(`--- agy analysis run in scratch folder ${scratch}; project added with --add-dir\n`);
    return await run(scratch, request.cwd);
  } finally {
    await rm(scratch, { recursive: true, force: true });
  }
}
