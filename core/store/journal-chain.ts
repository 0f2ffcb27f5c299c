import { hmacSha256Hex, sameDigest, sha256Hex } from '../hash/sha256-hex.ts';
import { canonicalJson } from '../trust/trust-subject.ts';
import { SluiceError } from '../errors/sluice-error.ts';
import { lineLinkHash } from './line-link-hash.ts';

/**
 * The hash chain every journal of records shares (the lifecycle's per-requirement journals, the SDLC
 * history): one JSON object per line, numbered from 1, each holding the hash of the line before and its
 * own SHA-256 over the rest, so editing, removing, inserting or reordering a line breaks the chain. A
 * chain can be recomputed by anyone, so each line also carries `mac`, an HMAC of its hash under the
 * person's record key (record-key.ts), which only sluice running as that person can make; and a prefix
 * of a chain is a chain, so its head is anchored outside the work tree (record-anchors.ts).
 */
export interface ChainLink {
  seq: number;
  prev: string;
  hash: string;
  mac?: string;
}
export type ChainEntry = ChainLink & Record<string, unknown>;

export const GENESIS = '0'.repeat(64);
const HEX64 = /^[0-9a-f]{64}$/;
const LONG_LINE = 16 * 1024;

/** The hash of an entry: its predecessor's hash, then every field but prev, hash and mac as canonical JSON. */
export function linkHash(entry: Record<string, unknown> & { prev: string }): string {
  const { prev, hash: _h, mac: _m, ...body } = entry;
  return sha256Hex(`${prev}\n${canonicalJson(body)}`);
}

/** The entry's HMAC under the person's record key: binds the hash to someone who holds the key. */
export const linkMac = (key: string, hash: string): string => hmacSha256Hex(key, `sluice-record\n${hash}`);

/** A new entry after `prev`, hashed and (with a key) keyed. */
export function chainNext<B extends Record<string, unknown>>(prev: ChainLink | undefined, body: B, key: string | undefined): B & ChainLink {
  const partial = { seq: (prev?.seq ?? 0) + 1, prev: prev?.hash ?? GENESIS, ...body };
  const hash = linkHash(partial);
  return { ...partial, hash, ...(key === undefined ? {} : { mac: linkMac(key, hash) }) };
}

export const macMatches = (key: string, e: ChainLink): boolean => e.mac !== undefined && sameDigest(e.mac, linkMac(key, e.hash));

export function tampered(file: string, message: string, hint?: string): SluiceError {
  return new SluiceError('STATE_TAMPERED', { file, message, ...(hint ? { hint } : {}) });
}

/**
 * The lines of a journal, parsed and chained: JSON, sequence, link and hash checked; `check` sees
 * each entry (and the one before) for what the records' own rules say. STATE_TAMPERED names the line.
 */
export function parseChain(text: string, shown: string, check?: (entry: ChainEntry, where: string, before: ChainEntry | undefined) => void): ChainEntry[] {
  return scanChain(text, shown, check, 0).kept;
}

export interface ChainScan {
  count: number;
  last: ChainEntry | undefined;
  /** The entries from index `keepFrom` on (all of them for 0). */
  kept: ChainEntry[];
}

/**
 * The same checks as parseChain, line by line, keeping only the last entry and those from index
 * `keepFrom` on: verifying a journal of 10,000 entries holds one entry at a time, not all of them.
 * A line over LONG_LINE characters that is neither kept nor last is hashed from its text
 * (line-link-hash.ts), and `check` sees it with its compound members empty (`[]`, `{}`).
 */
export function scanChain(
  text: string,
  shown: string,
  check: ((entry: ChainEntry, where: string, before: ChainEntry | undefined) => void) | undefined,
  keepFrom: number,
): ChainScan {
  const kept: ChainEntry[] = [];
  let before: ChainEntry | undefined;
  let count = 0;
  let start = 0;
  for (let n = 1; start < text.length; n++) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    const line = text.slice(start, end);
    start = end + 1;
    const where = `line ${n}`;
    // A long line neither kept nor last is only hashed: from its text, without building its objects.
    const head = count < keepFrom && start < text.length && line.length > LONG_LINE ? lineLinkHash(line) : undefined;
    let raw: unknown = head?.shallow;
    if (!head) {
      try {
        raw = JSON.parse(line);
      } catch {
        throw tampered(shown, `${where} is not JSON`);
      }
    }
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) throw tampered(shown, `${where} is not a journal entry`);
    const e = raw as ChainEntry;
    if (typeof e.seq !== 'number' || typeof e.prev !== 'string' || typeof e.hash !== 'string' || !HEX64.test(e.prev) || !HEX64.test(e.hash))
      throw tampered(shown, `${where} is not a journal entry (seq, prev and hash are required)`);
    if (e.mac !== undefined && (typeof e.mac !== 'string' || !HEX64.test(e.mac))) throw tampered(shown, `${where} has a malformed mac`);
    const expected = (before?.seq ?? 0) + 1;
    if (e.seq !== expected) throw tampered(shown, `${where} has sequence ${e.seq}, expected ${expected} (a line was removed or reordered)`);
    if (e.prev !== (before?.hash ?? GENESIS)) throw tampered(shown, `${where} does not chain to the line before (a line was changed, removed or inserted)`);
    if (e.hash !== (head ? head.hash : linkHash(e))) throw tampered(shown, `${where} was changed after it was written (its hash does not match)`);
    check?.(e, where, before);
    if (count >= keepFrom) kept.push(e);
    count++;
    before = e;
  }
  return { count, last: before, kept };
}

/** Lines for `entries`, appended to `text` (which may lack its final newline). */
export function appendLines(text: string, entries: readonly object[]): string {
  return `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${entries.map((e) => JSON.stringify(e)).join('\n')}\n`;
}
