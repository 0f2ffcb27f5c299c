import { CodecError } from './codec-error.ts';

/**
 * Data files nest a handful of levels. Parsers, validators, `structuredClone` and the writers all
 * recurse, so a file nested thousands of levels deep (or a YAML alias that contains itself) would
 * end in a stack overflow far from the file; it is refused when parsed instead, naming the file.
 */
export const MAX_DATA_DEPTH = 100;

export interface DataShapeOptions {
  /** The value may reuse nodes (YAML aliases): heights are memoised and cycles looked for. */
  shared?: boolean;
  /**
   * Numbers must be finite. JSON has no Infinity, but `1e999` parses to it, passes `v.number()`,
   * and is written back as `null`: a state file would be broken by its own rewrite.
   */
  finite?: boolean;
}

/** Refuses a parsed value nested deeper than MAX_DATA_DEPTH, holding a cycle (`a: &a [*a]`), or (`finite`) an infinite number. */
export function checkDataShape(value: unknown, o: DataShapeOptions = {}): void {
  heightOf(value, 0, { finite: o.finite === true, ...(o.shared ? { onPath: new Set(), heights: new Map() } : {}) });
}

interface Walk {
  finite: boolean;
  onPath?: Set<object>;
  heights?: Map<object, number>;
}

/** Recursion stops at MAX_DATA_DEPTH, so this never goes deeper than the limit itself. */
function heightOf(node: unknown, depth: number, walk: Walk): number {
  if (typeof node === 'number' && walk.finite && !Number.isFinite(node))
    throw new CodecError('a number is too large to be read exactly (it would be Infinity)');
  if (node === null || typeof node !== 'object') return 0;
  const known = walk.heights?.get(node);
  if (known !== undefined) {
    if (depth + known > MAX_DATA_DEPTH) throw tooDeep();
    return known;
  }
  if (walk.onPath?.has(node)) throw new CodecError('an alias refers to a node that contains it (a cycle), which no data file can hold');
  if (depth >= MAX_DATA_DEPTH) throw tooDeep();
  walk.onPath?.add(node);
  let height = 0;
  for (const child of Array.isArray(node) ? node : Object.values(node)) height = Math.max(height, heightOf(child, depth + 1, walk));
  walk.onPath?.delete(node);
  walk.heights?.set(node, height + 1);
  return height + 1;
}

const tooDeep = () => new CodecError(`data is nested more than ${MAX_DATA_DEPTH} levels deep`);
