import type { Document, LineCounter, Node } from 'yaml';
import { checkDataShape, CodecError, parseYamlDocument, yamlLibrary, yamlToData, type Codec } from '../../../core/index.ts';
import { eachHistoryItem, eachItemStart, readHistoryBlock, splitHistory, SPLIT_MIN_CHARS, type HistorySplit } from './history-block.ts';
import { Unsupported } from './plain-block-yaml.ts';
import { stringifyForPyYaml } from './pyyaml-safe-stringify.ts';

/**
 * The kernel's YAML rules (one-line syntax errors, alias-bomb cap, empty file refused) plus two
 * refusals for files other tools and people write: a `__proto__` key (prototype pollution in any
 * reader that merges objects) and two keys of one map that name the same thing once read (`1:` and
 * `'1':` would silently overwrite each other, since phase ids are compared as strings).
 * One parse: the checks walk the same document that is then turned into plain data.
 */
export const safeYamlCodec: Codec = {
  name: 'yaml',
  parse(text) {
    const hit = recent.get(text);
    if (hit !== undefined) return structuredClone(hit);
    const value = (text.length >= SPLIT_MIN_CHARS ? parseSplit(text) : undefined) ?? parseChecked(text);
    // A big state is not kept (nor copied): holding two copies of a long history is what it must not cost.
    if (text.length > RECENT_MAX_CHARS) return value;
    remember(text, value);
    return structuredClone(value);
  },
  // Written so the reference's Python scripts (PyYAML, YAML 1.1) read the same strings back.
  stringify: stringifyForPyYaml,
};

/**
 * The same bytes parse to the same data: a command reads state.yaml before its gates run and again
 * under the lock, and YAML parsing is most of its cost. A few recent texts are kept; callers get copies.
 */
const recent = new Map<string, unknown>();
const RECENT_MAX = 4;
const RECENT_MAX_CHARS = 256 * 1024;

function remember(text: string, value: unknown): void {
  if (text.length > RECENT_MAX_CHARS) return;
  recent.delete(text);
  recent.set(text, value);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value as string);
}

/**
 * A long state.yaml: its history block read entry by entry (history-block.ts), the rest by the library.
 * Undefined (read it whole) for any file that is not simply shaped or that either part finds wrong, so
 * errors are always the whole-file read's, with their lines.
 */
function parseSplit(text: string): unknown {
  return withSplitHead(text, (split, head) => {
    const history = readHistoryBlock(text, split.start, split.end, parseChecked);
    checkDataShape(history);
    head.history = history;
    return head;
  });
}

/**
 * A long state.yaml read as parseSplit reads it, but with each history entry handed to `each` (its
 * shape checked as in the whole read) instead of kept: the head is returned with `history: []`.
 * Undefined whenever parseSplit would give up; an error `each` throws propagates.
 */
export function parseSplitEach(text: string, each: (entry: unknown) => void): Record<string, unknown> | undefined {
  return withSplitHead(text, (split, head) => {
    eachShapedItem(text, split.start, split.end, each);
    return head;
  });
}

/**
 * A long state.yaml that is its journal's cache (so sluice wrote it and validated every entry): the
 * head read as parseSplitEach reads it, the history entries counted from their lines (each starts a
 * line at the block's indent with `- `) and only the last `keep` read and handed to `each`. Undefined
 * whenever parseSplitEach would give up.
 */
export function parseSplitTail(text: string, keep: number, each: (entry: unknown) => void): { head: Record<string, unknown>; total: number } | undefined {
  return withSplitHead(text, (split, head) => {
    const last: number[] = [];
    let total = 0;
    eachItemStart(text, split.start, split.end, (at) => {
      total++;
      last.push(at);
      if (last.length > keep) last.shift();
    });
    if (last.length > 0) eachShapedItem(text, last[0]!, split.end, each);
    return { head, total };
  });
}

/** The history entries of `[start, end)`, each with its shape checked inside its list, as the whole read checks it. */
function eachShapedItem(text: string, start: number, end: number, each: (entry: unknown) => void): void {
  eachHistoryItem(text, start, end, parseChecked, (item) => {
    checkDataShape([item]);
    each(item);
  });
}

/** `fn` on a long state.yaml's split and its head (read with `history: []`); undefined when the split read does not apply. */
function withSplitHead<T>(text: string, fn: (split: HistorySplit, head: Record<string, unknown>) => T): T | undefined {
  if (text.length < SPLIT_MIN_CHARS) return undefined;
  const split = splitHistory(text);
  if (!split) return undefined;
  try {
    const head = parseChecked(split.head) as Record<string, unknown> | null;
    if (head === null || typeof head !== 'object' || Array.isArray(head) || !Array.isArray(head.history) || head.history.length > 0) return undefined;
    return fn(split, head);
  } catch (error) {
    if (error instanceof Unsupported || error instanceof CodecError) return undefined;
    throw error;
  }
}

function parseChecked(text: string): unknown {
  if (text.trim() === '') throw new CodecError('file is empty');
  const lineCounter = new (yamlLibrary().LineCounter)();
  // merge: `<<: *defaults` keys, as PyYAML (YAML 1.1) writes and reads them.
  const doc = parseYamlDocument(text, { lineCounter, uniqueKeys: true, merge: true });
  const first = doc.errors[0];
  if (first) {
    const pos = first.linePos?.[0] ?? lineCounter.linePos(first.pos[0]);
    throw new CodecError(first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''), pos?.line, pos?.col);
  }
  checkKeys(doc, lineCounter);
  try {
    return yamlToData(doc);
  } catch (error) {
    // `<<: [a, b]` with something other than maps: the library says so without a position.
    if (!(error instanceof CodecError) || error.line !== undefined || !/^Merge /.test(error.message)) throw error;
    const at = lineCounter.linePos(firstMergeKey(doc) ?? 0);
    throw new CodecError(error.message, at.line, at.col);
  }
}

function firstMergeKey(doc: Document): number | undefined {
  const { isScalar, visit } = yamlLibrary();
  let offset: number | undefined;
  visit(doc, {
    Pair(_key, pair) {
      const key = isScalar(pair.key) ? pair.key.value : undefined;
      // With `merge`, the library reads the key as a symbol.
      if (key !== '<<' && !(typeof key === 'symbol' && key.description === '<<')) return undefined;
      offset = (pair.key as Node).range?.[0];
      return visit.BREAK;
    },
  });
  return offset;
}

function checkKeys(doc: Document, lineCounter: LineCounter): void {
  const { isScalar, visit } = yamlLibrary();
  let problem: CodecError | undefined;
  visit(doc, {
    Map(_key, map, path) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        if (!isScalar(pair.key)) continue;
        const key = String(pair.key.value);
        const duplicate = seen.has(key);
        if (key !== '__proto__' && !duplicate) {
          seen.add(key);
          continue;
        }
        const at = lineCounter.linePos((pair.key as Node).range?.[0] ?? 0);
        const field = [...dottedPath(path), key].join('.');
        problem = new CodecError(
          key === '__proto__'
            ? `key "__proto__" is not allowed (at ${field})`
            : `duplicate key ${JSON.stringify(key)} (at ${field}; quoted and bare keys are the same)`,
          at.line,
          at.col,
        );
        return visit.BREAK;
      }
      return undefined;
    },
  });
  if (problem) throw problem;
}

/** The map keys leading to a node, from the visitor's ancestor list (sequence positions are left out). */
function dottedPath(path: readonly unknown[]): string[] {
  const { isPair, isScalar } = yamlLibrary();
  return path.filter((node) => isPair(node) && isScalar(node.key)).map((pair) => String((pair as { key: { value: unknown } }).key.value));
}
