import type { DelegateAttempt } from '../../core/index.ts';
import { boundText, exitFailureMessage, isTransientFailure, lastLine, type CliProcessOutcome } from '../cli-process/index.ts';

/** What the JSONL event stream of `codex exec --json` adds up to; only bounded pieces are kept. */
export interface CodexRunState {
  threadId?: string;
  /** Text of the last completed `agent_message` item. */
  lastMessage?: string;
  completed: boolean;
  /** `turn.failed` message. */
  turnFailed?: string;
  /** Last `error` event not followed by a completed turn (codex reports reconnect attempts this way). */
  error?: string;
  usage?: Record<string, number>;
  badLines: number;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Folds one JSONL line into the run state. Pure apart from mutating `state`. */
export function readCodexEvent(state: CodexRunState, line: string): void {
  let e: Record<string, unknown>;
  try {
    const parsed: unknown = JSON.parse(line);
    if (typeof parsed !== 'object' || parsed === null) throw new Error('not an object');
    e = parsed as Record<string, unknown>;
  } catch {
    state.badLines++;
    return;
  }
  const item = (e.item ?? {}) as Record<string, unknown>;
  const error = (e.error ?? {}) as Record<string, unknown>;
  switch (e.type) {
    case 'thread.started':
      state.threadId = str(e.thread_id) ?? state.threadId;
      break;
    case 'item.completed':
      if (item.type === 'agent_message' && typeof item.text === 'string') state.lastMessage = boundText(item.text);
      break;
    case 'turn.completed':
      state.completed = true;
      state.error = undefined;
      if (typeof e.usage === 'object' && e.usage !== null) state.usage = e.usage as Record<string, number>;
      break;
    case 'turn.failed':
      state.turnFailed = str(error.message) ?? 'turn failed';
      break;
    case 'error':
      state.error = str(e.message) ?? str(error.message) ?? 'error event';
      break;
  }
}

export const newCodexRunState = (): CodexRunState => ({ completed: false, badLines: 0 });

/** Success needs exit 0, a completed turn, no `turn.failed`, no unrecovered `error`, and an answer. */
export function judgeCodex(p: CliProcessOutcome, s: CodexRunState): DelegateAttempt {
  const base = { exitCode: p.exitCode, durationMs: p.durationMs, text: s.lastMessage ?? '', ...(s.threadId ? { sessionId: s.threadId } : {}) };
  const fail = (error: string, ...evidence: (string | undefined)[]): DelegateAttempt => ({
    ...base,
    status: 'error',
    error,
    ...(isTransientFailure(...evidence) ? { transient: true } : {}),
  });
  if (s.turnFailed !== undefined) return fail(`codex turn failed: ${s.turnFailed}`, s.turnFailed);
  if (s.error !== undefined) return fail(`codex error: ${s.error}`, s.error, p.stderrTail);
  if (p.exitCode !== 0) return fail(exitFailureMessage('codex', p), p.stderrTail);
  if (!s.completed) {
    const what =
      p.stdout.bytes === 0
        ? 'codex printed nothing'
        : `codex ended without turn.completed${s.badLines ? ` (${s.badLines} line(s) were not JSON: ${lastLine(p.stdout.text) ?? ''})` : ''}`;
    return fail(what, p.stderrTail);
  }
  if (!s.lastMessage?.trim()) return fail('codex completed the turn without an agent message');
  return { ...base, status: 'ok', ...(s.usage ? { json: { usage: s.usage } } : {}) };
}
