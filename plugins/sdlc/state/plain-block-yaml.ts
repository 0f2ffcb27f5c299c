/**
 * A reader for the plain block YAML that sluice and PyYAML write for history entries: block mappings
 * and sequences (PyYAML's indentless ones too), plain, single- and double-quoted one-line scalars,
 * `[]` and `{}`. Anything else (block scalars, flow collections, anchors, tags, comments after a
 * value, a plain scalar that looks like a number other than a decimal integer, a key other than a
 * plain word or a quoted string) throws Unsupported, and the caller reads that part with the yaml
 * library, which is always right and has the line numbers for errors. It builds the values directly,
 * without a syntax tree: a 10,000-entry history reads in a few MB instead of a hundred.
 */
export class Unsupported extends Error {}

const unsupported = (why: string): never => {
  throw new Unsupported(why);
};

interface Line {
  start: number;
  indent: number;
  body: string;
  next: number;
}

export class BlockCursor {
  line: Line | null = null;
  constructor(
    private readonly text: string,
    public pos: number,
    private readonly end: number,
  ) {
    this.advance();
  }

  /** Continues at `pos` (a line's start). */
  moveTo(pos: number): void {
    this.pos = pos;
    this.advance();
  }

  /** Moves to the next line that holds something (blank lines and whole-line comments are skipped). */
  advance(): void {
    const { text, end } = this;
    while (this.pos < end) {
      let stop = text.indexOf('\n', this.pos);
      if (stop < 0 || stop > end) stop = end;
      const start = this.pos;
      this.pos = stop + 1;
      let i = start;
      while (i < stop && text.charCodeAt(i) === 32) i++;
      if (i === stop || text.charCodeAt(i) === 35 /* # */) continue;
      if (text.charCodeAt(i) === 9 || text.charCodeAt(stop - 1) === 13) unsupported('tab or carriage return');
      let j = stop;
      while (j > i && text.charCodeAt(j - 1) === 32) j--;
      this.line = { start, indent: i - start, body: text.slice(i, j), next: this.pos };
      return;
    }
    this.line = null;
  }
}

export const isSeqLine = (body: string) => body === '-' || body.startsWith('- ');
const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_./-]*$/;
const RESERVED_KEY = /^(?:true|false|null|yes|no|on|off|y|n)$/i;

/** A block node at the cursor's line (indentation `indent`): a sequence or a mapping. */
export function readBlock(c: BlockCursor, indent: number): unknown {
  const line = c.line;
  if (!line || line.indent !== indent) return unsupported('expected a block');
  return isSeqLine(line.body) ? readSequence(c, indent) : readMapping(c, indent);
}

function readSequence(c: BlockCursor, indent: number): unknown[] {
  const out: unknown[] = [];
  while (c.line && c.line.indent === indent && isSeqLine(c.line.body)) out.push(readSequenceItem(c, indent));
  if (c.line && c.line.indent > indent) unsupported('unexpected indentation');
  return out;
}

/** One `- …` entry of a block sequence at `indent`; the cursor ends on the line after it. */
export function readSequenceItem(c: BlockCursor, indent: number): unknown {
  const line = c.line!;
  const body = line.body;
  if (body === '-') {
    c.advance();
    return c.line && c.line.indent > indent ? readBlock(c, c.line.indent) : null;
  }
  let skip = 2;
  while (body.charCodeAt(skip) === 32) skip++;
  const rest = body.slice(skip);
  if (isSeqLine(rest)) unsupported('nested sequence on one line');
  if (keyOf(rest) !== undefined) {
    // `- key: value`: a mapping whose keys sit at the column after the dash.
    c.line = { ...line, indent: indent + skip, body: rest };
    return readMapping(c, indent + skip);
  }
  const value = scalar(rest);
  c.advance();
  if (c.line && c.line.indent > indent) unsupported('multi-line scalar');
  return value;
}

function readMapping(c: BlockCursor, indent: number): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const seen = new Set<string>();
  while (c.line && c.line.indent === indent && !isSeqLine(c.line.body)) {
    const split = keyOf(c.line.body);
    if (split === undefined) return unsupported('not a key');
    const [key, value] = split;
    // The library reports these with their line; leave them to it.
    if (key === '__proto__' || seen.has(key)) unsupported('key the library must report');
    seen.add(key);
    c.advance();
    if (value !== '') {
      out[key] = scalar(value);
      if (c.line && c.line.indent > indent) unsupported('multi-line scalar');
    } else if (c.line && c.line.indent > indent) out[key] = readBlock(c, c.line.indent);
    else if (c.line && c.line.indent === indent && isSeqLine(c.line.body)) out[key] = readSequence(c, indent);
    else out[key] = null;
  }
  if (c.line && c.line.indent > indent) unsupported('unexpected indentation');
  return out;
}

/** `key: value` split in two ('' for no value), or undefined when the line is no plain mapping entry. */
function keyOf(body: string): [string, string] | undefined {
  const first = body.charCodeAt(0);
  if (first === 34 /* " */ || first === 39 /* ' */) {
    const close = first === 34 ? closingDouble(body) : closingSingle(body);
    if (close < 0 || body.charCodeAt(close + 1) !== 58 /* : */) return undefined;
    const after = body.slice(close + 2);
    if (after !== '' && !after.startsWith(' ')) return undefined;
    return [String(scalar(body.slice(0, close + 1))), after.trimStart()];
  }
  const colon = body.indexOf(':');
  if (colon < 1) return undefined;
  const key = body.slice(0, colon);
  if (!PLAIN_KEY.test(key)) return undefined;
  if (RESERVED_KEY.test(key)) unsupported('a key the schema types');
  const after = body.slice(colon + 1);
  if (after !== '' && !after.startsWith(' ')) return undefined;
  return [key, after.trimStart()];
}

function closingDouble(s: string): number {
  for (let i = 1; i < s.length; i++) {
    const ch = s.charCodeAt(i);
    if (ch === 92 /* \ */) i++;
    else if (ch === 34) return i;
  }
  return -1;
}

function closingSingle(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s.charCodeAt(i) !== 39) continue;
    if (s.charCodeAt(i + 1) === 39) i++;
    else return i;
  }
  return -1;
}

const DECIMAL = /^-?(?:0|[1-9][0-9]{0,14})$/;
const PLAIN_START = /^[A-Za-z_/(]/;

/** A one-line scalar in the YAML 1.2 core schema the yaml library reads with. */
function scalar(s: string): unknown {
  const first = s.charCodeAt(0);
  if (first === 34) {
    if (closingDouble(s) !== s.length - 1) unsupported('text after a quoted scalar');
    // JSON's escapes are a subset of YAML's double-quoted ones; any other escape goes to the library.
    try {
      return JSON.parse(s) as string;
    } catch {
      return unsupported('escape JSON does not know');
    }
  }
  if (first === 39) {
    if (closingSingle(s) !== s.length - 1) unsupported('text after a quoted scalar');
    return s.slice(1, -1).replaceAll("''", "'");
  }
  if (s === '[]') return [];
  if (s === '{}') return {};
  if (s === '~' || s === 'null' || s === 'Null' || s === 'NULL') return null;
  if (s === 'true' || s === 'True' || s === 'TRUE') return true;
  if (s === 'false' || s === 'False' || s === 'FALSE') return false;
  if (DECIMAL.test(s)) return Number(s);
  if (!PLAIN_START.test(s) || s.includes(': ') || s.includes(' #') || s.endsWith(':')) return unsupported('plain scalar the library must read');
  return s;
}
