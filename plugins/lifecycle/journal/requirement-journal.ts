import { join } from 'pathe';
import * as v from 'valibot';
import {
  parseChain,
  SluiceError,
  STATE_TAMPERED_HINT,
  type Anchoring,
  type ChainEntry,
  type JournalSpec,
  type Kernel,
  type LoadedJournal,
} from '../../../core/index.ts';
import { createLifecycleContext, type LifecycleContext } from '../lifecycle-context.ts';
import { checkSlug } from '../slug.ts';
import { workflowStateInvariant } from '../state/workflow-state-invariant.ts';
import { WorkflowStateSchema, type WorkflowState } from '../state/workflow-state-schema.ts';
import { JournalEntrySchema, type JournalEntry } from './journal-entry.ts';

/** Folder of the per-requirement journals, relative to the project root. */
export const JOURNAL_DIR = '.prizmkit/state/journal';

export function journalPath(root: string, slug: string): string {
  return join(root, JOURNAL_DIR, `${checkSlug(slug)}.jsonl`);
}

export interface Journal {
  path: string;
  entries: JournalEntry[];
  /** The state each entry recorded, validated. */
  states: WorkflowState[];
  text: string;
  /** verified (against this machine's anchor) or unanchored here. */
  anchoring: Anchoring;
}

export const tampered = (file: string, message: string) => new SluiceError('STATE_TAMPERED', { file, message, hint: STATE_TAMPERED_HINT });

/** Each entry's validated state, kept beside the entry the store caches, so a journal read twice is validated once. */
const statesOf = new WeakMap<object, WorkflowState>();

/** The rules of one journal line: its schema, a valid state, and the rules between consecutive states. */
function checkEntry(e: ChainEntry, where: string, before: ChainEntry | undefined, isNew: boolean, shown: string): void {
  const fail = (message: string) => (isNew ? new SluiceError('INVARIANT_VIOLATED', { file: shown, message }) : tampered(shown, `${where}: ${message}`));
  const parsed = v.safeParse(JournalEntrySchema, e);
  if (!parsed.success) throw fail(`not a journal entry (${v.getDotPath(parsed.issues[0]) ?? ''}: ${parsed.issues[0].message})`);
  const state = v.safeParse(WorkflowStateSchema, e.state);
  if (!state.success) throw fail(`records an invalid state (${v.getDotPath(state.issues[0]) ?? ''}: ${state.issues[0].message})`);
  const prior = before && statesOf.get(before);
  if (prior) {
    const broken = journalStepBroken(prior, state.output, parsed.output);
    if (broken) throw fail(broken);
  }
  statesOf.set(e, state.output);
}

/** The journal as the kernel's journaled store sees it. */
export function journalSpec(lc: LifecycleContext, slug: string): JournalSpec {
  const path = journalPath(lc.root, slug);
  const shown = lc.kernel.display(path);
  return { path, purpose: 'sluice lifecycle', check: (e, where, before, isNew) => checkEntry(e, where, before, isNew, shown) };
}

/** Every requirement journal in the project at `root`, for `sluice anchor`. */
export async function listRequirementJournals(kernel: Kernel, root: string): Promise<(JournalSpec & { label: string })[]> {
  const lc = createLifecycleContext(kernel, root);
  const files = await kernel.host.listDir(join(root, JOURNAL_DIR)).catch(() => []);
  return files
    .filter((f) => f.kind === 'file' && f.name.endsWith('.jsonl'))
    .map((f) => f.name.slice(0, -'.jsonl'.length))
    .sort()
    .map((slug) => ({ ...journalSpec(lc, slug), label: `requirement ${slug}` }));
}

/** The journal of a requirement, its hash chain, every step and its anchor checked; null when there is none. */
export async function readJournal(lc: LifecycleContext, slug: string): Promise<Journal | null> {
  const loaded = await lc.kernel.store.loadJournal(journalSpec(lc, slug));
  return loaded && toJournal(loaded);
}

/** The store's loaded journal with each entry's validated state. */
export function toJournal(loaded: LoadedJournal): Journal {
  return {
    path: loaded.path,
    text: loaded.text,
    anchoring: loaded.anchoring,
    entries: loaded.entries as JournalEntry[],
    states: loaded.entries.map((e) => statesOf.get(e)!),
  };
}

/** Parses and checks a journal's text (a checkpoint's, read from git): chain, sequence, schema, and the rules between consecutive states. */
export function verifyJournal(text: string, shown: string): { entries: JournalEntry[]; states: WorkflowState[] } {
  const entries = parseChain(text, shown, (e, where, before) => checkEntry(e, where, before, false, shown));
  return { entries: entries as JournalEntry[], states: entries.map((e) => statesOf.get(e)!) };
}

/**
 * What no accepted transition does, checked again on replay: the state store's invariant (counters and
 * completed stages only move through recorded reroutes), a fixed owner, and blocks lifted only by unblock.
 */
export function journalStepBroken(before: WorkflowState, after: WorkflowState, entry: Pick<JournalEntry, 'row' | 'caller'>): string | undefined {
  const invariant = workflowStateInvariant(before, after);
  if (invariant) return invariant;
  if (before.orchestrator !== null && after.orchestrator !== before.orchestrator)
    return `the owner changed from ${before.orchestrator} to ${after.orchestrator ?? 'nobody'}`;
  if (before.orchestrator !== null && entry.caller !== before.orchestrator)
    return `recorded by ${entry.caller ?? 'a direct call'}, but ${before.orchestrator} owns the requirement`;
  if (before.status === 'WORKFLOW_BLOCKED' && after.status !== 'WORKFLOW_BLOCKED' && !entry.row.startsWith('unblock:'))
    return `a block (${before.blocker?.rule ?? '?'}) was lifted without an unblock`;
  return undefined;
}
