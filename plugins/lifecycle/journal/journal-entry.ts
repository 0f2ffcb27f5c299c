import * as v from 'valibot';
import { linkHash } from '../../../core/index.ts';

/**
 * One line of a requirement's journal (`.prizmkit/state/journal/<slug>.jsonl`): the state after one
 * accepted transition, who recorded it, the SHA-256 chaining it to the line before and the HMAC under the
 * person's record key (core/store/journal-chain.ts). The state file is only a cache of the last line.
 */
export const JournalEntrySchema = v.object({
  seq: v.pipe(v.number(), v.integer(), v.minValue(1)),
  prev: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  at: v.string(),
  caller: v.nullable(v.string()),
  row: v.pipe(v.string(), v.minLength(1)),
  state: v.record(v.string(), v.unknown()),
  hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  mac: v.optional(v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/))),
});
export type JournalEntry = v.InferOutput<typeof JournalEntrySchema>;

export { GENESIS } from '../../../core/index.ts';

export function entryHash(e: Omit<JournalEntry, 'hash'>): string {
  return linkHash(e);
}
