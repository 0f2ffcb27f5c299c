import { join } from 'pathe';
import * as v from 'valibot';
import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { checkSlug } from '../slug.ts';
import { workflowStateInvariant } from '../state/workflow-state-invariant.ts';
import { WorkflowStateSchema, type WorkflowState } from '../state/workflow-state-schema.ts';
import { entryHash, GENESIS, JournalEntrySchema, type JournalEntry } from './journal-entry.ts';

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
}

export const tampered = (file: string, message: string) =>
  new SluiceError('STATE_TAMPERED', {
    file,
    message,
    hint: 'sluice wrote nothing; `sluice lifecycle status` shows the requirement as tampered. A person restores the file (or deletes the state file and runs `sluice lifecycle recover`, which rebuilds it from the journal)',
  });

/** The journal of a requirement, its hash chain and every step checked; null when there is none. */
export async function readJournal(lc: LifecycleContext, slug: string): Promise<Journal | null> {
  const path = journalPath(lc.root, slug);
  let text: string;
  try {
    text = await lc.host.readText(path);
  } catch (error) {
    if ((await lc.host.lstat(path)) === null) return null;
    throw error;
  }
  return { path, text, ...verifyJournal(text, lc.kernel.display(path)) };
}

/** Parses and checks a journal's text: chain, sequence, schema, and the rules between consecutive states. */
export function verifyJournal(text: string, shown: string): { entries: JournalEntry[]; states: WorkflowState[] } {
  const entries: JournalEntry[] = [];
  const states: WorkflowState[] = [];
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  for (const [i, line] of lines.entries()) {
    const where = `line ${i + 1}`;
    let raw: unknown;
    try {
      raw = JSON.parse(line);
    } catch {
      throw tampered(shown, `${where} is not JSON`);
    }
    const parsed = v.safeParse(JournalEntrySchema, raw);
    if (!parsed.success) throw tampered(shown, `${where} is not a journal entry (${v.getDotPath(parsed.issues[0]) ?? ''}: ${parsed.issues[0].message})`);
    const e = parsed.output;
    const prev = entries.at(-1);
    if (e.seq !== (prev?.seq ?? 0) + 1)
      throw tampered(shown, `${where} has sequence ${e.seq}, expected ${(prev?.seq ?? 0) + 1} (a line was removed or reordered)`);
    if (e.prev !== (prev?.hash ?? GENESIS)) throw tampered(shown, `${where} does not chain to the line before (a line was changed, removed or inserted)`);
    if (e.hash !== entryHash(e)) throw tampered(shown, `${where} was changed after it was written (its hash does not match)`);
    const state = v.safeParse(WorkflowStateSchema, e.state);
    if (!state.success) throw tampered(shown, `${where} records an invalid state (${v.getDotPath(state.issues[0]) ?? ''}: ${state.issues[0].message})`);
    const before = states.at(-1);
    if (before) {
      const broken = journalStepBroken(before, state.output, e);
      if (broken) throw tampered(shown, `${where}: ${broken}`);
    }
    entries.push(e);
    states.push(state.output);
  }
  return { entries, states };
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
