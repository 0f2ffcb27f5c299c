import type { DelegateRequest, DelegateSettings } from '../../core/index.ts';
import { extraArgs, modelOf } from '../cli-process/index.ts';

/** Flags that let Claude Code edit files or run anything unasked: never in analysis runs. */
export const CLAUDE_WRITE_FLAGS = ['--dangerously-skip-permissions', '--permission-mode', '--allowedTools', '--allowed-tools'] as const;

export type ClaudeOutputFormat = 'json' | 'stream-json';

export function claudeOutputFormat(settings: DelegateSettings): ClaudeOutputFormat {
  return settings.outputFormat === 'json' ? 'json' : 'stream-json';
}

/**
 * argv for `claude -p` (the prompt goes on stdin). Write runs may accept edits; analysis runs use
 * plan mode, which lets Claude read and search but not edit files or run commands.
 */
export function claudeArgs(request: DelegateRequest, settings: DelegateSettings): string[] {
  const format = claudeOutputFormat(settings);
  const args = ['-p', '--output-format', format];
  if (format === 'stream-json') args.push('--verbose');
  args.push('--permission-mode', request.mode === 'write' ? 'acceptEdits' : 'plan');
  const model = modelOf(request, settings);
  if (model) args.push('--model', model);
  if (request.maxTurns !== undefined) args.push('--max-turns', String(request.maxTurns));
  if (request.resumeSession) args.push('--resume', request.resumeSession);
  for (const dir of request.addDirs ?? []) args.push('--add-dir', dir);
  args.push(...extraArgs('claude', settings, request.mode, CLAUDE_WRITE_FLAGS));
  return args;
}
