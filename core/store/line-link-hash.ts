import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex } from '@noble/hashes/utils';
import { NotFast, Utf8Sink, writeCanonicalText } from './canonical-json-text.ts';

/**
 * A journal line's link hash (journal-chain.ts linkHash: the `prev` hash, then every member but prev,
 * hash and mac as canonical JSON) computed from the line's text, without building its objects: an
 * entry that holds 10,000 adopted history entries is 1 MB of JSON, and parsing it whole to hash it
 * (which only needs its canonical text) held all of them at once. Members are found in the text,
 * sorted, and written into the hash one by one; only one object's member positions are held at a time.
 *
 * Only plain JSON this reader follows exactly is read (undefined otherwise, and the caller parses
 * the line as before): anything malformed is the caller's JSON.parse's to report.
 */
export interface LineHead {
  hash: string;
  /** The top-level members, with any compound value (object or array) read as an empty one of its kind. */
  shallow: Record<string, unknown>;
}

class NotPlain extends Error {}

const WS = new Set([0x20, 0x09, 0x0a, 0x0d]);

function skipWs(t: string, i: number): number {
  while (i < t.length && WS.has(t.charCodeAt(i))) i++;
  return i;
}

/** The end of the string starting at `i` (a `"`). */
function stringEnd(t: string, i: number): number {
  for (let j = i + 1; j < t.length; j++) {
    const c = t.charCodeAt(j);
    if (c === 0x22) return j + 1;
    if (c === 0x5c) j++;
    else if (c < 0x20) throw new NotPlain();
  }
  throw new NotPlain();
}

const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;

/** The end of the scalar starting at `i`. */
function scalarEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c === 0x22) return stringEnd(t, i);
  for (const word of ['true', 'false', 'null']) if (t.startsWith(word, i)) return i + word.length;
  NUMBER.lastIndex = i;
  if (!NUMBER.test(t)) throw new NotPlain();
  return NUMBER.lastIndex;
}

/** A scalar's canonical text: JSON.stringify of what JSON.parse reads it as. */
const canonicalScalar = (raw: string): string => JSON.stringify(JSON.parse(raw));

/** An array index ("0" to "4294967294", no leading zero), which a JS object lists first, in numeric order. */
const isIndex = (k: string): boolean => /^(?:0|[1-9]\d{0,9})$/.test(k) && Number(k) < 4294967295;

/**
 * The order canonicalJson's output has: its keys sorted, then laid out by a JS object, which puts
 * array indices first, ascending.
 */
function byJsOrder(a: Member, b: Member): number {
  const ai = isIndex(a.key);
  const bi = isIndex(b.key);
  if (ai && bi) return Number(a.key) - Number(b.key);
  if (ai !== bi) return ai ? -1 : 1;
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}

interface Member {
  key: string;
  start: number;
  end: number;
}

/** The members of the object at `i` (a `{`), the last of each key kept, and where the object ends. */
function objectMembers(t: string, i: number): { members: Member[]; end: number } {
  const byKey = new Map<string, Member>();
  let j = skipWs(t, i + 1);
  if (t.charCodeAt(j) === 0x7d) return { members: [], end: j + 1 };
  for (;;) {
    if (t.charCodeAt(j) !== 0x22) throw new NotPlain();
    const keyEnd = stringEnd(t, j);
    const key = JSON.parse(t.slice(j, keyEnd)) as string;
    j = skipWs(t, keyEnd);
    if (t.charCodeAt(j) !== 0x3a) throw new NotPlain();
    const start = skipWs(t, j + 1);
    const end = valueEnd(t, start);
    byKey.delete(key);
    byKey.set(key, { key, start, end });
    j = skipWs(t, end);
    const c = t.charCodeAt(j);
    if (c === 0x7d) break;
    if (c !== 0x2c) throw new NotPlain();
    j = skipWs(t, j + 1);
  }
  const members = [...byKey.values()].sort(byJsOrder);
  return { members, end: j + 1 };
}

/** The end of the value starting at `i` (not read, only skipped; strings and brackets matched). */
function valueEnd(t: string, i: number): number {
  const c = t.charCodeAt(i);
  if (c !== 0x7b && c !== 0x5b) return scalarEnd(t, i);
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const d = t.charCodeAt(j);
    if (d === 0x22) j = stringEnd(t, j) - 1;
    else if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      if (--depth === 0) return j + 1;
    }
  }
  throw new NotPlain();
}

/** Writes the canonical text of the value at `[i, end)` to `out`. */
function writeCanonical(t: string, i: number, end: number, out: (s: string) => void): void {
  const c = t.charCodeAt(i);
  if (c === 0x7b) {
    const { members } = objectMembers(t, i);
    out('{');
    members.forEach((m, n) => {
      out(`${n ? ',' : ''}${JSON.stringify(m.key)}:`);
      writeCanonical(t, m.start, m.end, out);
    });
    out('}');
  } else if (c === 0x5b) {
    out('[');
    let j = skipWs(t, i + 1);
    if (t.charCodeAt(j) !== 0x5d) {
      for (let n = 0; ; n++) {
        const e = valueEnd(t, j);
        if (n) out(',');
        writeCanonical(t, j, e, out);
        j = skipWs(t, e);
        const d = t.charCodeAt(j);
        if (d === 0x5d) break;
        if (d !== 0x2c) throw new NotPlain();
        j = skipWs(t, j + 1);
      }
    }
    out(']');
  } else out(canonicalScalar(t.slice(i, end)));
}

const LINK_FIELDS = new Set(['prev', 'hash', 'mac']);

/** The link hash and shallow members of the one JSON object on `line`, or undefined (parse it). */
export function lineLinkHash(line: string): LineHead | undefined {
  try {
    const i = skipWs(line, 0);
    if (line.charCodeAt(i) !== 0x7b) return undefined;
    const { members, end } = objectMembers(line, i);
    if (skipWs(line, end) !== line.length) return undefined;
    const shallow: Record<string, unknown> = {};
    for (const m of members) {
      const c = line.charCodeAt(m.start);
      Object.defineProperty(shallow, m.key, {
        value: c === 0x7b ? {} : c === 0x5b ? [] : JSON.parse(line.slice(m.start, m.end)),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    if (typeof shallow.prev !== 'string') return undefined;
    const body = members.filter((m) => !LINK_FIELDS.has(m.key));
    return { hash: fastLinkHash(line, shallow.prev, body) ?? slowLinkHash(line, shallow.prev, body), shallow };
  } catch (error) {
    if (error instanceof NotPlain || error instanceof SyntaxError) return undefined;
    throw error;
  }
}

/**
 * The link hash of `body`'s members, each value's canonical text written by `value` into a UTF-8 sink
 * (one fixed buffer: joining thousands of small pieces into strings kept them alive until hashed).
 */
function hashBody(line: string, prev: string, body: readonly Member[], value: (m: Member, out: Utf8Sink) => void): string {
  const h = sha256.create();
  const out = new Utf8Sink((bytes) => h.update(bytes));
  out.text(`${prev}\n{`);
  body.forEach((m, n) => {
    out.text(`${n ? ',' : ''}${JSON.stringify(m.key)}:`);
    value(m, out);
  });
  out.text('}');
  out.flush();
  return bytesToHex(h.digest());
}

/** Through canonical-json-text.ts (nothing built per member), or undefined when that writer gives up. */
function fastLinkHash(line: string, prev: string, body: readonly Member[]): string | undefined {
  try {
    return hashBody(line, prev, body, (m, out) => writeCanonicalText(line, m.start, out));
  } catch (error) {
    if (error instanceof NotFast) return undefined;
    throw error;
  }
}

/** Through the general canonicaliser (any JSON this reader follows). */
function slowLinkHash(line: string, prev: string, body: readonly Member[]): string {
  return hashBody(line, prev, body, (m, out) => writeCanonical(line, m.start, m.end, (piece) => out.text(piece)));
}
