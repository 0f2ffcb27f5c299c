import type { DelegateAttempt, DelegateRequest, DelegateRunContext } from '../../core/index.ts';
import { processFailure, runCliProcess } from '../cli-process/index.ts';
import { codexArgs } from './args.ts';
import { judgeCodex, newCodexRunState, readCodexEvent } from './parse-output.ts';

export async function runCodex(request: DelegateRequest, ctx: DelegateRunContext, command: string): Promise<DelegateAttempt> {
  const state = newCodexRunState();
  const p = await runCliProcess(
    {
      command,
      args: codexArgs(request, ctx.settings),
      cwd: request.cwd,
      input: request.prompt,
      onLine: (line) => readCodexEvent(state, line),
      captureBytes: 64 * 1024,
    },
    ctx,
  );
  return processFailure('codex', p, ctx.timeoutMs) ?? judgeCodex(p, state);
}
