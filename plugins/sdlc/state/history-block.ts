import { BlockCursor, isSeqLine, readSequenceItem, Unsupported } from './plain-block-yaml.ts';

/**
 * state.yaml read in two parts: everything but the top-level `history:` block (a few KB, read by the
 * yaml library with all its checks), and the history block, entry by entry, with the plain block
 * reader (plain-block-yaml.ts); an entry that reader does not handle (a block scalar, an anchor) is
 * read alone by the library. A history of 10,000 entries then costs its values, not a syntax tree of
 * the whole file (which took ~80× the file's size). Anything unusual about the file as a whole (no
 * single block `history:` key, a document marker, a problem either part reports) returns undefined,
 * and the caller reads the whole file with the library, which then names the line of any error.
 */
export const SPLIT_MIN_CHARS = 64 * 1024;

export interface HistorySplit {
  /** The file with its history block replaced by `history: []`, in the same place. */
  head: string;
  start: number;
  end: number;
}

/** Where the top-level `history:` block is, or undefined when the file is not simply shaped. */
export function splitHistory(text: string): HistorySplit | undefined {
  const key = text.startsWith('history:') ? 0 : text.indexOf('\nhistory:') + 1;
  if (key <= 0 && !text.startsWith('history:')) return undefined;
  if (text.indexOf('\nhistory:', key + 1) >= 0) return undefined;
  let lineEnd = text.indexOf('\n', key);
  if (lineEnd < 0) return undefined;
  if (text.slice(key + 'history:'.length, lineEnd).trim() !== '') return undefined;
  const start = lineEnd + 1;
  let end = start;
  while (end < text.length) {
    lineEnd = text.indexOf('\n', end);
    if (lineEnd < 0) lineEnd = text.length;
    const ch = text.charCodeAt(end);
    const blockLine = ch === 32 || ch === 35 || ch === 10 || (ch === 45 && isSeqLine(text.slice(end, lineEnd).trimEnd()));
    if (!blockLine) break;
    end = lineEnd + 1;
  }
  end = Math.min(end, text.length);
  if (text.startsWith('---', end) || text.startsWith('...', end)) return undefined;
  return { head: `${text.slice(0, key)}history: []\n${text.slice(end)}`, start, end };
}

/**
 * The entries of the history block `[start, end)`: null for an empty block. `parseAlone` reads one
 * entry's text with the library (it returns the one-element list the text is). Unsupported when the
 * block is not a sequence.
 */
export function readHistoryBlock(text: string, start: number, end: number, parseAlone: (item: string) => unknown): unknown[] | null {
  const items: unknown[] = [];
  return eachHistoryItem(text, start, end, parseAlone, (item) => items.push(item)) ? items : null;
}

/**
 * The entries of the history block `[start, end)` handed to `each` one at a time, so a caller that
 * folds them keeps none; false for an empty block. Errors as readHistoryBlock's.
 */
export function eachHistoryItem(text: string, start: number, end: number, parseAlone: (item: string) => unknown, each: (item: unknown) => void): boolean {
  const c = new BlockCursor(text, start, end);
  if (!c.line) return false;
  const indent = c.line.indent;
  while (c.line) {
    if (c.line.indent !== indent || !isSeqLine(c.line.body)) throw new Unsupported('not one block sequence');
    const itemStart = c.line.start;
    let item: unknown;
    try {
      item = readSequenceItem(c, indent);
    } catch (error) {
      if (!(error instanceof Unsupported)) throw error;
      const itemEnd = nextItem(text, itemStart, end, indent);
      const alone = parseAlone(text.slice(itemStart, itemEnd));
      if (!Array.isArray(alone) || alone.length !== 1) throw new Unsupported('an entry the library reads as more than one');
      item = alone[0];
      c.moveTo(itemEnd);
    }
    each(item);
  }
  return true;
}

/** Whether the line at `pos` begins a sequence entry at `indent` (`- ` or a bare `-` there). */
function startsItem(text: string, pos: number, end: number, indent: number): boolean {
  let i = pos;
  while (i < pos + indent && text.charCodeAt(i) === 32) i++;
  const ch = text.charCodeAt(pos + indent + 1);
  return i === pos + indent && text.charCodeAt(i) === 45 && (ch === 32 || ch === 10 || pos + indent + 1 >= end);
}

/** The start of the next line at `indent` that begins a sequence entry, or `end`. */
function nextItem(text: string, from: number, end: number, indent: number): number {
  let pos = text.indexOf('\n', from) + 1;
  while (pos > 0 && pos < end) {
    if (startsItem(text, pos, end, indent)) return pos;
    let i = pos;
    while (i < pos + indent && text.charCodeAt(i) === 32) i++;
    if (i === pos + indent && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 35 && text.charCodeAt(i) !== 10) throw new Unsupported('dedent');
    pos = text.indexOf('\n', pos) + 1;
  }
  return end;
}

/**
 * Where each entry of the history block `[start, end)` begins (at the indent of its first line), found
 * from the lines alone: for a block sluice wrote, which has no comment or block scalar at that indent.
 */
export function eachItemStart(text: string, start: number, end: number, each: (at: number) => void): void {
  let indent = 0;
  while (text.charCodeAt(start + indent) === 32) indent++;
  for (let at = start; at < end; ) {
    if (startsItem(text, at, end, indent)) each(at);
    const nl = text.indexOf('\n', at);
    at = nl < 0 ? end : nl + 1;
  }
}
