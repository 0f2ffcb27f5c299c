import type { DelegateAttempt, DelegateRequest, DelegateRunContext } from '../../core/index.ts';
import { processFailure, runCliProcess } from '../cli-process/index.ts';
import { shellArgs, shellEnv } from './args.ts';
import { judgeShell } from './parse-output.ts';

export async function runShell(request: DelegateRequest, ctx: DelegateRunContext, command: string): Promise<DelegateAttempt> {
  const output = ctx.settings.output === 'json' ? 'json' : 'text';
  const p = await runCliProcess(
    { command, args: shellArgs(request, ctx.settings), cwd: request.cwd, input: request.prompt, env: shellEnv(request, ctx.settings) },
    ctx,
  );
  return processFailure('command', p, ctx.timeoutMs) ?? judgeShell(p, output);
}
