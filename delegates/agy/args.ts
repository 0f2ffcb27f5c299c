import type { DelegateRequest, DelegateSettings } from '../../core/index.ts';
import { extraArgs, modelOf } from '../cli-process/index.ts';

/** Flags that let agy edit files or change its permission mode: never in analysis runs. */
export const AGY_WRITE_FLAGS = ['--dangerously-skip-permissions', '--yolo', '--mode'] as const;

/**
 * Linux refuses a single argv string over 128 KiB (E2BIG). Bigger prompts go on stdin: agy
 * reads the prompt from a non-terminal stdin when no prompt flag is given (agy >= 1.1.1).
 */
export const AGY_ARGV_PROMPT_LIMIT = 100 * 1024;

export type AgyPromptVia = 'argv' | 'stdin';

/**
 * A prompt starting with `-` given as `-p VALUE` may be taken for a flag, and one starting with `/`
 * for a slash command: such prompts always go on stdin, and a leading `/` is moved off the first
 * character (see agyStdinPrompt).
 */
export const promptLooksLikeCommand = (prompt: string): boolean => /^\s*[-/]/.test(prompt);

export function agyPromptVia(prompt: string, settings: DelegateSettings): AgyPromptVia {
  if (promptLooksLikeCommand(prompt)) return 'stdin';
  if (settings.promptVia === 'argv' || settings.promptVia === 'stdin') return settings.promptVia;
  return new TextEncoder().encode(prompt).length > AGY_ARGV_PROMPT_LIMIT ? 'stdin' : 'argv';
}

export interface AgyArgsOptions {
  timeoutMs: number;
  promptVia: AgyPromptVia;
  /** The project folder, when the run itself happens in a scratch folder. */
  projectDir?: string;
}

/** What goes on stdin: the prompt, with a first line in front when it would start with `/` (a slash command). */
export const agyStdinPrompt = (prompt: string): string => (/^\s*\//.test(prompt) ? `Request (text, not a command):\n${prompt}` : prompt);

/**
 * agy's own --print-timeout, set BELOW sluice's clock (10%, at least 2 s, earlier): agy ≥ 1.1.28
 * then ends the turn itself and returns what it has, with a stderr warning sluice reads as a timeout,
 * instead of being killed with nothing.
 */
export function agyPrintTimeoutSeconds(timeoutMs: number): number {
  // Whole seconds of what is left of the budget (a few ms already went on starting the run).
  const seconds = Math.round(timeoutMs / 1000);
  return Math.max(1, seconds - Math.max(2, Math.ceil(seconds * 0.1)));
}

/** argv for `agy -p PROMPT --output-format json --print-timeout Ns`; sluice still kills the process group itself at its own clock. */
export function agyArgs(request: DelegateRequest, settings: DelegateSettings, o: AgyArgsOptions): string[] {
  const args = o.promptVia === 'argv' ? ['-p', request.prompt] : [];
  args.push('--output-format', 'json', '--print-timeout', `${agyPrintTimeoutSeconds(o.timeoutMs)}s`);
  if (request.mode === 'write') args.push('--dangerously-skip-permissions');
  else args.push('--mode', 'plan');
  for (const dir of [...(o.projectDir ? [o.projectDir] : []), ...(request.addDirs ?? [])]) args.push('--add-dir', dir);
  const model = modelOf(request, settings);
  if (model) args.push('--model', model);
  args.push(...extraArgs('agy', settings, request.mode, AGY_WRITE_FLAGS));
  return args;
}
