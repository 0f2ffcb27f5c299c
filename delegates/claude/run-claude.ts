import type { DelegateAttempt, DelegateRequest, DelegateRunContext } from '../../core/index.ts';
import { processFailure, runCliProcess } from '../cli-process/index.ts';
import { claudeArgs, claudeOutputFormat } from './args.ts';
import { createClaudeStreamReader, judgeClaude, parseClaudeJson } from './parse-output.ts';

export async function runClaude(request: DelegateRequest, ctx: DelegateRunContext, command: string): Promise<DelegateAttempt> {
  const streaming = claudeOutputFormat(ctx.settings) === 'stream-json';
  const reader = streaming ? createClaudeStreamReader() : undefined;
  const p = await runCliProcess(
    {
      command,
      args: claudeArgs(request, ctx.settings),
      cwd: request.cwd,
      input: request.prompt,
      ...(reader ? { onLine: reader.line, captureBytes: 64 * 1024 } : {}),
    },
    ctx,
  );
  const failed = processFailure('claude', p, ctx.timeoutMs);
  if (failed) return failed;
  const result = reader ? reader.state.result : p.stdout.complete ? parseClaudeJson(p.stdout.text) : undefined;
  return judgeClaude(p, result);
}
