import type { DelegateAttempt } from '../../core/index.ts';
import { boundText } from '../cli-process/bounded-capture.ts';
import { exitFailureMessage, firstLine, lastLine, type CliProcessOutcome } from '../cli-process/run-cli-process.ts';
import { isTransientFailure } from '../cli-process/transient-failure.ts';

/** The envelope of `agy --output-format json` (agy 1.1.x). */
export interface AgyEnvelope {
  conversation_id?: string;
  status?: string;
  response?: string;
  error?: string;
  num_turns?: number;
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

/**
 * Success needs exit 0, an envelope whose status is SUCCESS, and a non-empty response. agy is known
 * to print nothing at all when it cannot use a terminal or authenticate: that is a failure, not an answer.
 */
export function judgeAgy(p: CliProcessOutcome, env: AgyEnvelope | undefined): DelegateAttempt {
  const text = typeof env?.response === 'string' ? boundText(env.response) : '';
  const base = {
    exitCode: p.exitCode,
    durationMs: p.durationMs,
    text,
    ...(typeof env?.conversation_id === 'string' ? { sessionId: env.conversation_id } : {}),
    ...(typeof env?.num_turns === 'number' ? { numTurns: env.num_turns } : {}),
  };
  const fail = (error: string): DelegateAttempt => ({ ...base, status: 'error', error, ...(isTransientFailure(env?.error, p.stderrTail) ? { transient: true } : {}) });
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
  if (text.trim() === '') return fail('agy reported SUCCESS with an empty response');
  return { ...base, status: 'ok' };
}
