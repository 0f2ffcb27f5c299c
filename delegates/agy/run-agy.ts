import type { DelegateAttempt, DelegateRequest, DelegateRunContext, Kernel } from '../../core/index.ts';
import { processFailure, runCliProcess } from '../cli-process/index.ts';
import { agyArgs, agyPromptVia, agyStdinPrompt } from './args.ts';
import { judgeAgy, parseAgyJson } from './parse-output.ts';
import { promptSizeWarning } from './prompt-size.ts';
import { rejectedFlagMessage } from './rejected-flag.ts';

/**
 * agy keeps per-folder state and misbehaves when two runs share a working directory, so no two
 * runs do: an analysis run gets a fresh scratch folder (the project is added with --add-dir,
 * readable), and write runs, which must work in the project itself, take turns per folder.
 */
export async function runAgy(request: DelegateRequest, ctx: DelegateRunContext, command: string, kernel: Kernel): Promise<DelegateAttempt> {
  const promptVia = agyPromptVia(request.prompt, ctx.settings);
  const sizeWarning = promptSizeWarning(request.prompt);
  const run = async (cwd: string, projectDir?: string) => {
    if (sizeWarning) ctx.transcript.write(`--- warning: ${sizeWarning}\n`);
    const p = await runCliProcess(
      {
        command,
        args: agyArgs(request, ctx.settings, { timeoutMs: ctx.timeoutMs, promptVia, ...(projectDir ? { projectDir } : {}) }),
        cwd,
        ...(promptVia === 'stdin' ? { input: agyStdinPrompt(request.prompt) } : {}),
      },
      ctx,
    );
    let judged = processFailure('agy', p, ctx.timeoutMs) ?? judgeAgy(p, p.stdout.complete ? parseAgyJson(p.stdout.text) : undefined);
    // Exit 2 is agy refusing its command line: most likely a version without a flag sluice passes.
    if (p.exitCode === 2 && judged.status === 'error') judged = { ...judged, error: await rejectedFlagMessage(command, ctx, p) };
    if (judged.deniedActions?.length) ctx.transcript.write(`\n--- agy refused ${judged.deniedActions.length} action(s): ${judged.deniedActions.join(', ')}\n`);
    return sizeWarning ? { ...judged, warnings: [sizeWarning, ...(judged.warnings ?? [])] } : judged;
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
