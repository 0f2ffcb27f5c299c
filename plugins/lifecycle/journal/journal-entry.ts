import * as v from 'valibot';
import { sha256Hex } from '../../../core/index.ts';

/**
 * One line of a requirement's journal (`.prizmkit/state/journal/<slug>.jsonl`): the state after one
 * accepted transition, who recorded it, and a SHA-256 chaining it to the line before. Editing, deleting
 * or reordering a line breaks the chain; the state file is only a cache of the last line.
 */
export const JournalEntrySchema = v.object({
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  prev: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  at: v.string(),
  caller: v.nullable(v.string()),
  row: v.pipe(v.string(), v.minLength(1)),
  state: v.record(v.string(), v.unknown()),
  hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
});
export type JournalEntry = v.InferOutput<typeof JournalEntrySchema>;

export const GENESIS = '0'.repeat(64);

/** JSON with object keys sorted at every level, so equal values always hash alike. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const keys = Object.keys(value)
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .sort();
  return `{${keys.map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`).join(',')}}`;
}

export function entryHash(e: Omit<JournalEntry, 'hash'>): string {
  return sha256Hex(`${e.prev}\n${canonicalJson({ seq: e.seq, at: e.at, caller: e.caller, row: e.row, state: e.state })}`);
}

export function makeEntry(
  prev: JournalEntry | undefined,
  body: { at: string; caller: string | null; row: string; state: Record<string, unknown> },
): JournalEntry {
  const partial = { seq: (prev?.seq ?? 0) + 1, prev: prev?.hash ?? GENESIS, ...body };
  return { ...partial, hash: entryHash(partial) };
}
