/**
 * The canonical text of a JSON value (canonicalJson's: keys sorted, no whitespace, JSON.stringify's
 * escaping) written from the value's own text into a UTF-8 sink, building nothing per member: member
 * positions go into one reusable integer pool, keys and canonical scalars are copied from the text
 * byte by byte. Hashing a journal line of 10,000 history entries through objects (or even through a
 * string per key) allocated tens of megabytes, and that alone grew V8's young generation to several
 * times the line's size. Anything this writer does not follow exactly (an escaped or numeric key, a
 * duplicate key, a number JSON.stringify would write differently, an escape it would not write)
 * throws NotFast, and the caller canonicalises the line the slow way from the start.
 */
export class NotFast extends Error {}

/** UTF-8 into one 64 KB buffer handed to `write` when full; strings are encoded without being copied. */
export class Utf8Sink {
  private readonly buf = new Uint8Array(64 * 1024);
  private n = 0;
  constructor(private readonly write: (bytes: Uint8Array) => void) {}

  /** `t`'s UTF-16 units `[a, b)`; a surrogate pair is one code point, a lone surrogate U+FFFD as TextEncoder writes it. */
  range(t: string, a: number, b: number): void {
    const buf = this.buf;
    for (let k = a; k < b; k++) {
      if (this.n > buf.length - 4) this.flush();
      let c = t.charCodeAt(k);
      if (c < 0x80) {
        buf[this.n++] = c;
        continue;
      }
      if (c < 0x800) {
        buf[this.n++] = 0xc0 | (c >> 6);
        buf[this.n++] = 0x80 | (c & 0x3f);
        continue;
      }
      if (c >= 0xd800 && c <= 0xdfff) {
        const low = k + 1 < b ? t.charCodeAt(k + 1) : 0;
        if (c <= 0xdbff && low >= 0xdc00 && low <= 0xdfff) {
          c = 0x10000 + ((c - 0xd800) << 10) + (low - 0xdc00);
          k++;
          buf[this.n++] = 0xf0 | (c >> 18);
          buf[this.n++] = 0x80 | ((c >> 12) & 0x3f);
          buf[this.n++] = 0x80 | ((c >> 6) & 0x3f);
          buf[this.n++] = 0x80 | (c & 0x3f);
          continue;
        }
        c = 0xfffd;
      }
      buf[this.n++] = 0xe0 | (c >> 12);
      buf[this.n++] = 0x80 | ((c >> 6) & 0x3f);
      buf[this.n++] = 0x80 | (c & 0x3f);
    }
  }

  text(s: string): void {
    this.range(s, 0, s.length);
  }

  flush(): void {
    if (this.n) this.write(this.buf.subarray(0, this.n));
    this.n = 0;
  }
}

/** Four integers per object member (key start and end inside its quotes, value start and end), reused across calls. */
let pool = new Int32Array(4096);

const ch = (t: string, i: number) => t.charCodeAt(i);

/** Writes the canonical text of the value at `i` and returns where the value ends. */
export function writeCanonicalText(t: string, i: number, out: Utf8Sink): number {
  return writeValue(t, i, out, 0);
}

function writeValue(t: string, i: number, out: Utf8Sink, top: number): number {
  const c = ch(t, i);
  if (c === 0x7b) return writeObject(t, i, out, top);
  if (c === 0x5b) {
    out.text('[');
    let j = i + 1;
    if (ch(t, j) === 0x5d) {
      out.text(']');
      return j + 1;
    }
    for (let n = 0; ; n++) {
      if (n) out.text(',');
      j = writeValue(t, j, out, top);
      const d = ch(t, j);
      if (d === 0x5d) break;
      if (d !== 0x2c) throw new NotFast();
      j++;
    }
    out.text(']');
    return j + 1;
  }
  const end = scalarEnd(t, i);
  out.range(t, i, end);
  return end;
}

function writeObject(t: string, i: number, out: Utf8Sink, top: number): number {
  let j = i + 1;
  let count = 0;
  if (ch(t, j) !== 0x7d) {
    for (;;) {
      const keyEnd = stringEnd(t, j);
      if (ch(t, keyEnd) !== 0x3a) throw new NotFast();
      const valueEnd = skipValue(t, keyEnd + 1);
      const at = top + count * 4;
      if (at + 4 > pool.length) {
        const grown = new Int32Array(pool.length * 2);
        grown.set(pool);
        pool = grown;
      }
      pool[at] = j + 1;
      pool[at + 1] = keyEnd - 1;
      pool[at + 2] = keyEnd + 1;
      pool[at + 3] = valueEnd;
      checkKey(t, j + 1, keyEnd - 1);
      // Insertion sort: a journal entry's objects have a handful of members.
      for (let k = count; k > 0; k--) {
        const a = top + (k - 1) * 4;
        const b = top + k * 4;
        const order = compare(t, pool[a]!, pool[a + 1]!, pool[b]!, pool[b + 1]!);
        if (order === 0) throw new NotFast();
        if (order < 0) break;
        for (let m = 0; m < 4; m++) {
          const keep = pool[a + m]!;
          pool[a + m] = pool[b + m]!;
          pool[b + m] = keep;
        }
      }
      count++;
      j = valueEnd;
      const d = ch(t, j);
      if (d === 0x7d) break;
      if (d !== 0x2c) throw new NotFast();
      j++;
    }
  }
  out.text('{');
  const below = top + count * 4;
  for (let k = 0; k < count; k++) {
    const at = top + k * 4;
    if (k) out.text(',');
    out.range(t, pool[at]! - 1, pool[at + 1]! + 1);
    out.text(':');
    writeValue(t, pool[at + 2]!, out, below);
  }
  out.text('}');
  return j + 1;
}

/** A key written as JSON.stringify writes it (no escape at all) that a JS object does not list first (not an array index). */
function checkKey(t: string, a: number, b: number): void {
  let digits = a < b;
  for (let k = a; k < b; k++) {
    const c = ch(t, k);
    if (c === 0x5c || (c >= 0xd800 && c <= 0xdfff)) throw new NotFast();
    if (c < 0x30 || c > 0x39) digits = false;
  }
  if (digits) throw new NotFast();
}

function compare(t: string, a: number, ae: number, b: number, be: number): number {
  const n = Math.min(ae - a, be - b);
  for (let k = 0; k < n; k++) {
    const d = ch(t, a + k) - ch(t, b + k);
    if (d !== 0) return d;
  }
  return ae - a - (be - b);
}

/** The end of the string at `i` when JSON.stringify would write its value exactly so. */
function stringEnd(t: string, i: number): number {
  if (ch(t, i) !== 0x22) throw new NotFast();
  for (let j = i + 1; j < t.length; j++) {
    const c = ch(t, j);
    if (c === 0x22) return j + 1;
    if (c < 0x20) throw new NotFast();
    if (c === 0x5c) {
      const e = ch(t, ++j);
      // The escapes JSON.stringify writes; any \u escape is left to the slow path.
      if (e !== 0x22 && e !== 0x5c && e !== 0x62 && e !== 0x66 && e !== 0x6e && e !== 0x72 && e !== 0x74) throw new NotFast();
    } else if (c >= 0xd800 && c <= 0xdfff) {
      // A pair stays as it is; a lone surrogate JSON.stringify would escape.
      const low = ch(t, j + 1);
      if (c > 0xdbff || !(low >= 0xdc00 && low <= 0xdfff)) throw new NotFast();
      j++;
    }
  }
  throw new NotFast();
}

/** The end of a scalar JSON.stringify writes as it stands: a string, a literal, an integer within 2^53 (not -0). */
function scalarEnd(t: string, i: number): number {
  const c = ch(t, i);
  if (c === 0x22) return stringEnd(t, i);
  if (c === 0x74 && t.startsWith('true', i)) return i + 4;
  if (c === 0x66 && t.startsWith('false', i)) return i + 5;
  if (c === 0x6e && t.startsWith('null', i)) return i + 4;
  let j = c === 0x2d ? i + 1 : i;
  const first = j;
  while (ch(t, j) >= 0x30 && ch(t, j) <= 0x39) j++;
  const digits = j - first;
  if (digits === 0 || digits > 15 || (digits > 1 && ch(t, first) === 0x30) || (first > i && digits === 1 && ch(t, first) === 0x30)) throw new NotFast();
  const next = ch(t, j);
  if (next === 0x2e || next === 0x65 || next === 0x45) throw new NotFast();
  return j;
}

/** Skips the value at `i` (strings and brackets matched), checked only as far as finding its end. */
function skipValue(t: string, i: number): number {
  const c = ch(t, i);
  if (c !== 0x7b && c !== 0x5b) return scalarEnd(t, i);
  let depth = 0;
  for (let j = i; j < t.length; j++) {
    const d = ch(t, j);
    if (d === 0x22) j = stringEnd(t, j) - 1;
    else if (d === 0x7b || d === 0x5b) depth++;
    else if (d === 0x7d || d === 0x5d) {
      if (--depth === 0) return j + 1;
    } else if (d === 0x20 || d === 0x0a || d === 0x09 || d === 0x0d) throw new NotFast();
  }
  throw new NotFast();
}
