import type { DelegateAttempt } from '../../core/index.ts';
import { boundText, exitFailureMessage, isTransientFailure, lastLine, meaningfulLine, type CliProcessOutcome } from '../cli-process/index.ts';

/** The final `result` message of `claude -p --output-format json|stream-json`. */
export interface ClaudeResultMessage {
  type: 'result';
  subtype?: string;
  is_error?: boolean;
  result?: string;
  session_id?: string;
  total_cost_usd?: number;
  num_turns?: number;
}

const isResult = (v: unknown): v is ClaudeResultMessage => typeof v === 'object' && v !== null && (v as { type?: unknown }).type === 'result';

/**
 * `--output-format json` prints one result object; with `--verbose` some versions print the array
 * of every message instead. Returns undefined for anything else (garbage, truncated output).
 */
export function parseClaudeJson(text: string): ClaudeResultMessage | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (isResult(value)) return value;
  if (Array.isArray(value)) return value.findLast(isResult);
  return undefined;
}

/** Reads `--output-format stream-json` line by line, keeping only the final result and the session id. */
export function createClaudeStreamReader() {
  const state: { result?: ClaudeResultMessage; sessionId?: string; badLines: number } = { badLines: 0 };
  return {
    state,
    line(line: string) {
      let event: unknown;
      try {
        event = JSON.parse(line);
      } catch {
        state.badLines++;
        return;
      }
      if (typeof event !== 'object' || event === null) return;
      const sid = (event as { session_id?: unknown }).session_id;
      if (typeof sid === 'string') state.sessionId = sid;
      if (isResult(event)) state.result = event;
    },
  };
}

/** Success needs exit 0 and a result object with `is_error: false`; anything else is a failure saying why. */
export function judgeClaude(p: CliProcessOutcome, result: ClaudeResultMessage | undefined): DelegateAttempt {
  const base = { exitCode: p.exitCode, durationMs: p.durationMs };
  const carried = {
    ...(typeof result?.session_id === 'string' ? { sessionId: result.session_id } : {}),
    ...(typeof result?.total_cost_usd === 'number' ? { costUsd: result.total_cost_usd } : {}),
    ...(typeof result?.num_turns === 'number' ? { numTurns: result.num_turns } : {}),
  };
  const text = typeof result?.result === 'string' ? boundText(result.result) : '';
  if (result === undefined) {
    const error =
      p.exitCode !== 0
        ? exitFailureMessage('claude', p)
        : p.stdout.bytes === 0
          ? 'claude printed nothing'
          : `claude printed no result object${p.stdout.complete ? '' : ` (output of ${p.stdout.bytes} bytes too large to parse)`}: ${meaningfulLine(p.stdout.text) ?? ''}`;
    return {
      ...base,
      status: 'error',
      text: '',
      error,
      ...(isTransientFailure(p.stderrTail, p.stdout.complete ? p.stdout.text : undefined) ? { transient: true } : {}),
    };
  }
  if (p.exitCode === 0 && result.is_error === false) return { ...base, status: 'ok', text, ...carried };
  // The result text is claude's own message ("Not logged in · Please run /login"), not the JSON around it.
  const why = lastLine(result.result ?? '') ?? result.subtype ?? 'is_error is not false';
  const error = p.exitCode === 0 ? `claude reported an error (${result.subtype ?? 'error'}): ${why}` : exitFailureMessage('claude', p, why);
  return { ...base, status: 'error', text, ...carried, error, ...(isTransientFailure(result.result, p.stderrTail) ? { transient: true } : {}) };
}
