import * as v from 'valibot';
import { HistoryEntrySchema, type HistoryEntry } from './history-schema.ts';
import { parseSplitEach, parseSplitTail } from './safe-yaml-codec.ts';

/**
 * A long state.yaml for a command that needs a summary of its history, not the history: each entry is
 * read, validated as the state schema validates it, handed to the fold and dropped, so 10,000 entries
 * cost what the fold keeps. The state comes back with `history: []`.
 */
export interface HistoryFold {
  /** Each entry, oldest first; `index` counts from 0. */
  add(entry: HistoryEntry, index: number): void;
}

class NotFolded extends Error {}

/**
 * The state in `text` with its history folded into `fold`, or undefined when the fast read does not
 * apply (a short or unusually shaped file, a missing `created_at` that the history would supply, or
 * anything invalid): the caller then reads the file whole, which reports any error with its field and
 * line, and folds that history into a fresh fold (this one may have seen some entries).
 */
export function readStateFolding<S extends v.GenericSchema>(text: string, schema: S, fold: HistoryFold): v.InferOutput<S> | undefined {
  let index = 0;
  return unlessNotFolded(() => {
    const head = parseSplitEach(text, (raw) => fold.add(validEntry(raw), index++));
    return head && stateOfHead(head, schema);
  });
}

/**
 * The state and the last `fold.keep` history entries of a long state.yaml that is its journal's cache:
 * every entry was validated when sluice wrote it, so the rest are only counted, never read. Undefined
 * when the fast read does not apply (the caller reads the file as readStateFolding's callers do).
 */
export function readStateRecent<S extends v.GenericSchema>(text: string, schema: S, fold: RecentHistory): v.InferOutput<S> | undefined {
  const tail: HistoryEntry[] = [];
  return unlessNotFolded(() => {
    const read = parseSplitTail(text, fold.keep, (raw) => tail.push(validEntry(raw)));
    const state = read && stateOfHead(read.head, schema);
    if (!read || !state) return undefined;
    fold.total = read.total - tail.length;
    for (const entry of tail) fold.add(entry);
    return state;
  });
}

/** A history entry as the state schema validates it; NotFolded when it is not one. */
function validEntry(raw: unknown): HistoryEntry {
  const entry = v.safeParse(HistoryEntrySchema, raw);
  if (!entry.success) throw new NotFolded();
  return entry.output;
}

/** The head (read with `history: []`) as the state, unless the history would supply a missing `created_at`. */
function stateOfHead<S extends v.GenericSchema>(head: Record<string, unknown>, schema: S): v.InferOutput<S> | undefined {
  if (typeof head.created_at !== 'string') return undefined;
  const state = v.safeParse(schema, head);
  return state.success ? state.output : undefined;
}

function unlessNotFolded<T>(read: () => T | undefined): T | undefined {
  try {
    return read();
  } catch (error) {
    if (error instanceof NotFolded) return undefined;
    throw error;
  }
}

/** The fold `sluice status` needs: how many entries, and the last `keep` of them. */
export class RecentHistory implements HistoryFold {
  total = 0;
  private readonly last: HistoryEntry[] = [];
  constructor(readonly keep: number) {}
  add(entry: HistoryEntry): void {
    this.total++;
    this.last.push(entry);
    if (this.last.length > this.keep) this.last.shift();
  }
  get recent(): readonly HistoryEntry[] {
    return this.last;
  }
}

/** Feeds an already read history to a fold (the whole-file path). */
export function foldHistory<F extends HistoryFold>(history: readonly HistoryEntry[], fold: F): F {
  history.forEach((entry, i) => fold.add(entry, i));
  return fold;
}

/** The fold that keeps every entry (validated as read, so the file's parse and its validated copy are never both held). */
export class AllHistory implements HistoryFold {
  readonly entries: HistoryEntry[] = [];
  add(entry: HistoryEntry): void {
    this.entries.push(entry);
  }
}
