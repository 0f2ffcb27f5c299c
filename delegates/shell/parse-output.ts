import type { DelegateAttempt } from '../../core/index.ts';
import { boundText, exitFailureMessage, isTransientFailure, type CliProcessOutcome } from '../cli-process/index.ts';

export type ShellOutput = 'text' | 'json';

/**
 * Success needs exit 0 and some output. With `output: json` stdout must be one JSON value: it
 * becomes the result's `json`, and its `text` or `result` string (if any) the answer text.
 */
export function judgeShell(p: CliProcessOutcome, output: ShellOutput): DelegateAttempt {
  const base = { exitCode: p.exitCode, durationMs: p.durationMs };
  const raw = p.stdout.text;
  if (p.exitCode !== 0)
    return {
      ...base,
      status: 'error',
      text: boundText(raw),
      error: exitFailureMessage('command', p),
      ...(isTransientFailure(p.stderrTail) ? { transient: true } : {}),
    };
  if (raw.trim() === '') return { ...base, status: 'error', text: '', error: 'the command printed nothing' };
  if (output === 'text') return { ...base, status: 'ok', text: boundText(raw) };
  if (!p.stdout.complete) return { ...base, status: 'error', text: boundText(raw), error: `output of ${p.stdout.bytes} bytes is too large to parse as JSON` };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (error) {
    return { ...base, status: 'error', text: boundText(raw), error: `output is not JSON: ${error instanceof Error ? error.message : String(error)}` };
  }
  const fields = typeof json === 'object' && json !== null ? (json as Record<string, unknown>) : {};
  const text = typeof fields.text === 'string' ? fields.text : typeof fields.result === 'string' ? fields.result : raw;
  return { ...base, status: 'ok', text: boundText(text), json };
}
