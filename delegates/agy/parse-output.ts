import type { DelegateAttempt } from '../../core/index.ts';
import { boundText, exitFailureMessage, firstLine, isTransientFailure, lastLine, type CliProcessOutcome } from '../cli-process/index.ts';
import { deniedActionsOf, describeDenied } from './denied-actions.ts';

/** The envelope of `agy --output-format json` (agy 1.1.x). */
export interface AgyEnvelope {
  conversation_id?: string;
  status?: string;
  response?: string;
  error?: string;
  num_turns?: number;
  /** Actions agy refused headless (agy >= 1.2.0): strings such as `command(npm test)`, or objects naming them. */
  denied_actions?: unknown[];
  [key: string]: unknown;
}

/**
 * agy 1.1.8 writes raw newlines inside the `response` string, which strict JSON rejects. Escape
 * control characters that sit inside string literals, then parse; anything else still fails.
 */
export function parseAgyJson(text: string): AgyEnvelope | undefined {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  for (const candidate of [trimmed, escapeControlCharsInStrings(trimmed)]) {
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as AgyEnvelope;
      return undefined;
    } catch {
      // try the repaired text next
    }
  }
  return undefined;
}

export function escapeControlCharsInStrings(text: string): string {
  let out = '';
  let inString = false;
  let escaped = false;
  for (const ch of text) {
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
      else if (ch < ' ') {
        out += ch === '\n' ? '\\n' : ch === '\r' ? '\\r' : ch === '\t' ? '\\t' : `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
        continue;
      }
    } else if (ch === '"') inString = true;
    out += ch;
  }
  return out;
}

const PRINT_TIMEOUT_WARNING = /print timeout after (\S+) with turn in progress/;

export interface AgyErrorLine {
  short_error?: string;
  retryable?: boolean;
  error_id?: string;
}

/** The last `AGY_ERROR: {...}` line agy writes to stderr (exit 3), or undefined. */
export function readAgyError(stderr: string): AgyErrorLine | undefined {
  const lines = stderr.split(/\r?\n/).filter((l) => l.trimStart().startsWith('AGY_ERROR:'));
  for (const line of lines.reverse()) {
    try {
      const v: unknown = JSON.parse(line.trimStart().slice('AGY_ERROR:'.length));
      if (typeof v !== 'object' || v === null) continue;
      const o = v as Record<string, unknown>;
      return {
        ...(typeof o.short_error === 'string' ? { short_error: o.short_error.split(/\r?\n/)[0].slice(0, 300) } : {}),
        ...(typeof o.retryable === 'boolean' ? { retryable: o.retryable } : {}),
        ...(typeof o.error_id === 'string' || typeof o.error_id === 'number' ? { error_id: String(o.error_id) } : {}),
      };
    } catch {
      // not the JSON shape: look further up
    }
  }
  return undefined;
}

/**
 * Success needs exit 0, an envelope whose status is SUCCESS, and a non-empty response. agy is known
 * to print nothing at all when it cannot use a terminal or authenticate: that is a failure, not an answer.
 */
export function judgeAgy(p: CliProcessOutcome, env: AgyEnvelope | undefined): DelegateAttempt {
  const text = typeof env?.response === 'string' ? boundText(env.response) : '';
  // agy ≥ 1.1.28 ends a turn cut by its --print-timeout with exit 0 and SUCCESS: only stderr says so.
  const cut = PRINT_TIMEOUT_WARNING.exec(p.stderrTail);
  if (cut) {
    return {
      exitCode: p.exitCode,
      durationMs: p.durationMs,
      text,
      status: 'timeout',
      error: `agy's own --print-timeout expired mid-turn (${cut[1]}); the answer is cut off${text.trim() ? ' (partial text kept)' : ''}`,
    };
  }
  const agyError = readAgyError(p.stderrTail);
  if (agyError && p.exitCode !== 0) {
    const error = `agy exited with code ${p.exitCode}: ${agyError.short_error ?? 'error'}${agyError.error_id ? ` (error id ${agyError.error_id})` : ''}`;
    // agy says itself whether a retry can help; sluice's own guess from the text does not override it.
    return { exitCode: p.exitCode, durationMs: p.durationMs, text, status: 'error', error, ...(agyError.retryable === true ? { transient: true } : {}) };
  }
  const denied = deniedActionsOf(env);
  const base = {
    exitCode: p.exitCode,
    durationMs: p.durationMs,
    text,
    ...(typeof env?.conversation_id === 'string' ? { sessionId: env.conversation_id } : {}),
    ...(typeof env?.num_turns === 'number' ? { numTurns: env.num_turns } : {}),
    ...(denied.length ? { deniedActions: denied } : {}),
  };
  const fail = (error: string): DelegateAttempt => ({
    ...base,
    status: 'error',
    error,
    ...(isTransientFailure(env?.error, p.stderrTail) ? { transient: true } : {}),
  });
  if (p.stdout.bytes === 0 || (p.stdout.complete && p.stdout.text.trim() === '')) {
    return fail(p.exitCode === 0 ? 'agy printed nothing (it does this when it has no terminal or cannot authenticate)' : exitFailureMessage('agy', p));
  }
  if (env === undefined) {
    const why = p.stdout.complete ? `not JSON: ${lastLine(p.stdout.text) ?? ''}` : `${p.stdout.bytes} bytes, too large to parse`;
    return fail(p.exitCode === 0 ? `agy output is not the expected JSON envelope (${why})` : exitFailureMessage('agy', p));
  }
  const status = typeof env.status === 'string' ? env.status.toUpperCase() : undefined;
  // The envelope's error says more than stderr; its first line is the message, the rest detail.
  const envError = typeof env.error === 'string' ? firstLine(env.error) : undefined;
  if (p.exitCode !== 0) return fail(envError ? `agy exited with code ${p.exitCode}: ${envError}` : exitFailureMessage('agy', p));
  if (status !== 'SUCCESS') return fail(`agy reported ${status ?? 'no status'}${envError ? `: ${envError}` : ''}`);
  // A refused tool call can discard the whole turn: SUCCESS, exit 0, nothing answered.
  if (text.trim() === '' && denied.length)
    return {
      ...base,
      status: 'error',
      error: `agy refused ${describeDenied(denied)}, and answered nothing (headless agy cannot ask; allow them under permissions.allow in agy's settings, or run in write mode)`,
    };
  if (text.trim() === '') return fail('agy reported SUCCESS with an empty response');
  if (denied.length) return { ...base, status: 'ok', warnings: [`agy refused ${describeDenied(denied)}; the answer was written without them`] };
  return { ...base, status: 'ok' };
}
