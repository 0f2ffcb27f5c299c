import type { DelegateRequest, DelegateSettings } from '../../core/index.ts';
import { extraArgs, modelOf } from '../cli-process/cli-settings.ts';

/** Flags that let agy edit files or change its permission mode: never in analysis runs. */
export const AGY_WRITE_FLAGS = ['--dangerously-skip-permissions', '--yolo', '--mode'] as const;

/**
 * Linux refuses a single argv string over 128 KiB (E2BIG). Bigger prompts go on stdin: agy
 * reads the prompt from a non-terminal stdin when no prompt flag is given (agy >= 1.1.1).
 */
export const AGY_ARGV_PROMPT_LIMIT = 100 * 1024;

export type AgyPromptVia = 'argv' | 'stdin';

export function agyPromptVia(prompt: string, settings: DelegateSettings): AgyPromptVia {
  if (settings.promptVia === 'argv' || settings.promptVia === 'stdin') return settings.promptVia;
  return new TextEncoder().encode(prompt).length > AGY_ARGV_PROMPT_LIMIT ? 'stdin' : 'argv';
}

export interface AgyArgsOptions {
  timeoutMs: number;
  promptVia: AgyPromptVia;
  /** The project folder, when the run itself happens in a scratch folder. */
  projectDir?: string;
}

/**
 * argv for `agy -p PROMPT --output-format json --print-timeout Ns`. agy's own print timeout is set
 * to our wall clock as a first line of defence; sluice still kills the process group itself.
 */
export function agyArgs(request: DelegateRequest, settings: DelegateSettings, o: AgyArgsOptions): string[] {
  const args = o.promptVia === 'argv' ? ['-p', request.prompt] : [];
  args.push('--output-format', 'json', '--print-timeout', `${Math.max(1, Math.ceil(o.timeoutMs / 1000))}s`);
  if (request.mode === 'write') args.push('--dangerously-skip-permissions');
  else args.push('--mode', 'plan');
  for (const dir of [...(o.projectDir ? [o.projectDir] : []), ...(request.addDirs ?? [])]) args.push('--add-dir', dir);
  const model = modelOf(request, settings);
  if (model) args.push('--model', model);
  args.push(...extraArgs('agy', settings, request.mode, AGY_WRITE_FLAGS));
  return args;
}
