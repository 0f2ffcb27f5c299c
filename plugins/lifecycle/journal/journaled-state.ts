import { dirname } from 'pathe';
import { canonicalJson, isSluiceError, realPathInside, SluiceError, validateData, type Anchoring } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { workflowStateFile } from '../state/workflow-state-file.ts';
import { WorkflowStateSchema, type WorkflowState } from '../state/workflow-state-schema.ts';
import type { JournalEntry } from './journal-entry.ts';
import { journalPath, journalSpec, readJournal, tampered, toJournal, type Journal } from './requirement-journal.ts';

/**
 * Where a requirement's state came from: its journal (the state file matches the last entry), its
 * journal with the state file missing or one write behind (a crash between the two writes), or a
 * state file without a journal (written before journals, or by PrizmKit itself; adopted on the next write).
 */
export type Provenance = 'journal' | 'cache-missing' | 'cache-behind' | 'unjournaled';

export interface LoadedRequirement {
  state: WorkflowState;
  provenance: Provenance;
  journal: Journal | null;
  /** The journal against this machine's anchor: verified, or unanchored here (a fresh clone, another machine). */
  anchoring: Anchoring;
}

type JournalHead = { seq: number; hash: string };

/** The state without sluice's pointer to the journal entry it caches. */
function withoutHead(state: WorkflowState): WorkflowState {
  const { journal: _head, ...rest } = state as WorkflowState & { journal?: JournalHead };
  return rest as WorkflowState;
}

async function readCache(lc: LifecycleContext, slug: string): Promise<WorkflowState | undefined> {
  return lc.kernel.store.read(workflowStateFile(lc.root, slug)).catch((error) => {
    if (isSluiceError(error, 'FILE_NOT_FOUND')) return undefined;
    throw error;
  });
}

/**
 * The requirement's state as its journal has it, checked against the state file: a state file that
 * differs from the replay (edited, or its journal deleted) is STATE_TAMPERED; a journal that contradicts
 * this machine's anchor is STATE_TAMPERED or JOURNAL_ROLLED_BACK (core/store/record-anchors.ts), so a
 * deleted or shortened journal never reads as an older, valid one. Null when neither exists.
 */
export async function loadRequirement(lc: LifecycleContext, slug: string): Promise<LoadedRequirement | null> {
  // The state file before the journal: a writer appends to the journal first, so a concurrent write reads as cache-behind, never as a state ahead of its journal.
  const cache = await readCache(lc, slug);
  const journal = await readJournal(lc, slug);
  return settle(lc, slug, journal, cache);
}

function settle(lc: LifecycleContext, slug: string, journal: Journal | null, cache: WorkflowState | undefined): LoadedRequirement | null {
  const shownState = lc.kernel.display(workflowStateFile(lc.root, slug).path);
  const head = (cache as { journal?: JournalHead } | undefined)?.journal;
  if (!journal) {
    if (!cache) return null;
    if (head) throw tampered(lc.kernel.display(journalPath(lc.root, slug)), `the journal is missing, but ${shownState} says it has ${head.seq} entries`);
    return { state: cache, provenance: 'unjournaled', journal, anchoring: { state: 'unanchored' } };
  }
  const anchoring = journal.anchoring;
  const last = journal.entries.at(-1);
  if (!last) throw tampered(lc.kernel.display(journal.path), 'the journal is empty');
  const replay = journal.states.at(-1)!;
  if (!cache) return { state: replay, provenance: 'cache-missing', journal, anchoring };
  const cached = canonicalJson(withoutHead(cache));
  if (head?.seq === last.seq && head.hash === last.hash && cached === canonicalJson(replay))
    return { state: replay, provenance: 'journal', journal, anchoring };
  const before = journal.entries.at(-2);
  if (before && head?.seq === before.seq && head.hash === before.hash && cached === canonicalJson(journal.states.at(-2)))
    return { state: replay, provenance: 'cache-behind', journal, anchoring };
  throw tampered(shownState, `the state file does not match its journal: ${describeDifference(withoutHead(cache), replay, head, last)}`);
}

function describeDifference(file: WorkflowState, replay: WorkflowState, head: JournalHead | undefined, last: JournalEntry): string {
  const keys = [...new Set([...Object.keys(file), ...Object.keys(replay)])].sort();
  const differ = keys.filter((k) => canonicalJson((file as Record<string, unknown>)[k]) !== canonicalJson((replay as Record<string, unknown>)[k]));
  const shown = differ.slice(0, 4).map((k) => {
    const a = (file as Record<string, unknown>)[k];
    const b = (replay as Record<string, unknown>)[k];
    const simple = (x: unknown) => x === null || typeof x !== 'object';
    return simple(a) && simple(b) ? `${k} is ${JSON.stringify(a)} in the file, ${JSON.stringify(b)} in the journal` : `${k} differs`;
  });
  if (differ.length === 0) return `it points at entry ${head?.seq ?? 'none'}, the journal ends at entry ${last.seq}`;
  return `${shown.join('; ')}${differ.length > 4 ? `; and ${differ.length - 4} more field(s)` : ''}`;
}

export interface JournaledWrite {
  before: WorkflowState | undefined;
  after: WorkflowState;
  written: boolean;
}

/**
 * The only way lifecycle state is written, through the kernel's journaled store (`store.append`): under
 * the requirement's journal lock, load and check (journal, anchor, state file), compute, validate
 * (schema, invariant, journal rules), append the entry, move the anchor, then write the state file as its
 * cache. `compute` returns undefined for "no change" and throws a SluiceError to refuse; nothing is
 * written then. A state without journal is adopted first (an `adopt` entry before the new one).
 */
export async function writeJournaled(
  lc: LifecycleContext,
  slug: string,
  caller: string | null,
  compute: (current: LoadedRequirement | null) => { state: WorkflowState; row: string } | undefined,
): Promise<JournaledWrite> {
  const spec = journalSpec(lc, slug);
  const file = workflowStateFile(lc.root, slug);
  const shown = lc.kernel.display(file.path);
  // A symlinked journal folder must not take sluice's records out of the project.
  await realPathInside(lc.host, lc.root, spec.path, 'lifecycle journal');
  await lc.host.mkdir(dirname(spec.path));
  let current: LoadedRequirement | null = null;
  const { appended } = await lc.kernel.store.append(
    spec,
    async (loaded) => {
      current = settle(lc, slug, loaded && toJournal(loaded), await readCache(lc, slug));
      const out = compute(current);
      if (!out) {
        if (!current) throw new SluiceError('STATE_MISSING', { file: shown, message: `requirement ${slug} has no workflow state` });
        return undefined;
      }
      const after = withoutHead(validateData(WorkflowStateSchema, out.state, shown, 'INVARIANT_VIOLATED'));
      const at = lc.now();
      const before = current?.state;
      const entries: Record<string, unknown>[] = [];
      if (before && current?.provenance === 'unjournaled') entries.push({ at, caller: before.orchestrator, row: 'adopt', state: before });
      entries.push({ at, caller, row: out.row, state: after });
      return { entries, result: after };
    },
    async (_loaded, added, after) => {
      const c = current as LoadedRequirement | null;
      // A crash between the journal and the state file: bring the cache up to the journal.
      if (added.length === 0) {
        if (c?.provenance === 'cache-behind') await writeCache(lc, file, c.state, c.journal!.entries.at(-1)!);
        return;
      }
      await writeCache(lc, file, after!, added.at(-1) as JournalEntry);
    },
  );
  const c = current as LoadedRequirement | null;
  if (appended.length === 0) return { before: c!.state, after: c!.state, written: c!.provenance === 'cache-behind' };
  return { before: c?.state, after: (appended.at(-1) as JournalEntry).state as WorkflowState, written: true };
}

/** The state file: the journal's last state plus the entry it caches. */
async function writeCache(lc: LifecycleContext, file: ReturnType<typeof workflowStateFile>, state: WorkflowState, last: JournalEntry): Promise<void> {
  await lc.host.mkdir(dirname(file.path));
  await lc.kernel.store.create(file, { ...state, journal: { seq: last.seq, hash: last.hash } } as WorkflowState, { overwrite: true });
}
