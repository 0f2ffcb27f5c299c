import { join } from 'pathe';
import {
  canonicalJson,
  sha256Hex,
  SluiceError,
  STATE_TAMPERED_HINT,
  type Anchoring,
  type ChainEntry,
  type JournalSpec,
  type Kernel,
  type LoadedJournal,
} from '../../../core/index.ts';
import type { HistoryEntry } from './history-schema.ts';
import { phaseKey } from './phase-id.ts';

/**
 * The SDLC history as a journal of records (`.sdlc/journal.jsonl`, through the kernel's journaled store):
 * one entry per write of state.yaml, holding the history entries that write appended (a transition, an
 * approval, a skip, a re-entry, a waiver acceptance, a refreeze; none for a gate run), the phase after it
 * and the SHA-256 of the state.yaml text it wrote. state.yaml stays in the reference plugin's format and
 * is the journal's cache: when its hash is the last entry's, it agrees without being compared.
 *
 * The reference's own scripts (advance_phase.py) write state.yaml without the journal: history entries
 * after the journal's are then "foreign", read as claims (each must be a plausible entry: an advance
 * carries its gate run, a skip or re-entry its justification) and adopted, marked `adopted`, by the next
 * write. Anything else (a journaled entry changed or removed, a phase moved without a history entry, an
 * advance with no gate run) is STATE_TAMPERED.
 */
export const HISTORY_JOURNAL = 'journal.jsonl';

export interface HistoryJournalBody {
  at: string;
  caller: string | null;
  /** init, reinit, adopt, gate, advance, skip, reentry, signoff, refreeze, waivers (joined with + when several). */
  row: string;
  history: HistoryEntry[];
  /** A re-initialisation: the history starts again with this entry's. */
  reset?: true;
  /** History entries another tool wrote (the reference's scripts), taken as they were. */
  adopted?: true;
  phase: string;
  cache: string;
}

export interface HistoryRecords {
  /** journal: state.yaml is its cache; foreign: it has entries written outside sluice (adopted next write); unjournaled: no journal yet. */
  provenance: 'journal' | 'foreign' | 'unjournaled';
  entries: number;
  anchoring: Anchoring;
  /** History entries not (yet) in the journal. */
  foreign: number;
  /** The journal as loaded (for the write that follows). */
  journal: LoadedJournal | null;
  /** Only for the audit: why the history cannot be trusted (STATE_TAMPERED, JOURNAL_ROLLED_BACK). */
  problem?: SluiceError;
}

const HEX64 = /^[0-9a-f]{64}$/;

export function historyJournalSpec(kernel: Kernel, dir: string, statePath: string): JournalSpec & { label: string } {
  const path = join(dir, HISTORY_JOURNAL);
  const shown = kernel.display(path);
  return {
    path,
    label: 'SDLC history',
    // The lock of state.yaml: one writer for the journal and its cache.
    lockPath: `${statePath}.lock`,
    cacheFirst: true,
    // Read for its head by every command; only a history written outside sluice needs every entry.
    headOnly: true,
    purpose: 'sluice sdlc',
    check(e, where, _before, isNew) {
      const b = e as ChainEntry & Partial<HistoryJournalBody>;
      const problem =
        typeof b.row !== 'string' || b.row === ''
          ? 'has no row'
          : !Array.isArray(b.history)
            ? 'has no history list'
            : typeof b.phase !== 'string'
              ? 'has no phase'
              : typeof b.cache !== 'string' || !HEX64.test(b.cache)
                ? 'has no state hash'
                : undefined;
      if (!problem) return;
      throw new SluiceError(isNew ? 'INVARIANT_VIOLATED' : 'STATE_TAMPERED', { file: shown, message: `${where} ${problem}`, hint: STATE_TAMPERED_HINT });
    },
  };
}

/** The history the journal records, in order (a re-initialisation starts it again). */
export function journaledHistory(entries: readonly ChainEntry[]): HistoryEntry[] {
  let out: HistoryEntry[] = [];
  for (const e of entries) {
    const b = e as ChainEntry & HistoryJournalBody;
    if (b.reset) out = [...b.history];
    else for (const h of b.history) out.push(h);
  }
  return out;
}

/** The kind of a history entry, as a journal row names it. */
export function historyKind(h: HistoryEntry): string {
  if (h.refreeze) return 'refreeze';
  if (h.waiver_acceptance) return 'waivers';
  if (h.signoff) return 'signoff';
  if (h.skipped) return 'skip';
  if (h.reentry) return 'reentry';
  return 'advance';
}

/**
 * Why a history entry written outside sluice cannot be taken as one (undefined: it can): it must
 * leave the phase the project was in, and say why it moved: an advance carries the summary of the
 * gate run that allowed it, a skip or re-entry its justification.
 */
export function foreignEntryProblem(h: HistoryEntry, phase: string | undefined): string | undefined {
  const from = phaseKey(h.from);
  const to = phaseKey(h.to);
  if (phase !== undefined && from !== phase) return `it leaves phase ${from}, but the project was in phase ${phase}`;
  const kind = historyKind(h);
  if ((kind === 'refreeze' || kind === 'waivers' || kind === 'signoff') && from !== to)
    return `a ${kind} does not move the project, yet it goes from ${from} to ${to}`;
  if ((kind === 'skip' || kind === 'reentry') && !h.justification?.trim()) return `a ${kind} from ${from} to ${to} with no justification`;
  if (kind === 'advance' && h.gate_results === undefined) return `an advance from ${from} to ${to} with no gate run`;
  return undefined;
}

/** The phase after `history`, starting from `phase`. */
function phaseAfter(history: readonly HistoryEntry[], phase: string | undefined): string | undefined {
  let p = phase;
  for (const h of history) p = phaseKey(h.to);
  return p;
}

/**
 * The records when state.yaml is exactly the journal's cache (its hash is the last entry's): the
 * history then agrees without being read, which lets a view fold it instead of keeping it. Undefined
 * otherwise (judgeHistory decides).
 */
export function cachedRecords(journal: LoadedJournal | null, text: string): HistoryRecords | undefined {
  const last = journal?.last as (ChainEntry & HistoryJournalBody) | undefined;
  // sha256Hex, not host.sha256: a repeated gate or status that only reads must not load node:crypto (same digest).
  if (!journal || !last || last.cache !== sha256Hex(text)) return undefined;
  return { entries: journal.count, anchoring: journal.anchoring, journal, provenance: 'journal', foreign: 0 };
}

/**
 * state.yaml (its text and parsed history and phase) against its journal; throws STATE_TAMPERED
 * naming what differs. Without a journal (a project the reference set up, or one from before
 * journals) every history entry is a claim checked as a foreign one.
 */
export function judgeHistory(
  host: { sha256(data: string): string },
  journal: LoadedJournal | null,
  text: string,
  state: { current_phase: string | number; history: readonly HistoryEntry[] },
  shown: string,
): HistoryRecords {
  const fail = (message: string) => new SluiceError('STATE_TAMPERED', { file: shown, message, hint: STATE_TAMPERED_HINT });
  const current = phaseKey(state.current_phase);
  const checkForeign = (foreign: readonly HistoryEntry[], offset: number, phase: string | undefined) => {
    let p = phase;
    for (const [i, h] of foreign.entries()) {
      const problem = foreignEntryProblem(h, p);
      if (problem) throw fail(`history entry ${offset + i + 1} was not written by sluice and cannot be taken: ${problem}`);
      p = phaseKey(h.to);
    }
    const expected = phaseAfter(foreign, phase);
    if (expected !== undefined && expected !== current) throw fail(`current_phase is ${current}, but the history ends in phase ${expected}`);
  };
  if (!journal) {
    checkForeign(state.history, 0, undefined);
    return { provenance: 'unjournaled', entries: 0, anchoring: { state: 'unanchored' }, foreign: state.history.length, journal };
  }
  const last = journal.last as (ChainEntry & HistoryJournalBody) | undefined;
  if (!last) throw fail('the journal is empty');
  const base = { entries: journal.count, anchoring: journal.anchoring, journal };
  const cached = cachedRecords(journal, text);
  if (cached) return cached;
  const recorded = journaledHistory(journal.entries);
  if (state.history.length < recorded.length)
    throw fail(`the history has ${state.history.length} entries, the journal records ${recorded.length}: entries were removed`);
  for (let i = 0; i < recorded.length; i++) {
    if (canonicalJson(state.history[i]) !== canonicalJson(recorded[i])) throw fail(`history entry ${i + 1} differs from the one the journal records`);
  }
  const foreign = state.history.slice(recorded.length);
  checkForeign(foreign, recorded.length, phaseKey(last.phase));
  return { ...base, provenance: foreign.length > 0 ? 'foreign' : 'journal', foreign: foreign.length };
}

/** What `status` says about the records, in words. */
export function describeRecords(r: HistoryRecords): string {
  const where =
    r.anchoring.state === 'unanchored'
      ? 'unanchored here (no anchor on this machine: a person checks the journal and runs `sluice anchor`)'
      : r.anchoring.from > 0
        ? `verified from entry ${r.anchoring.from + 1} (entries 1–${r.anchoring.from} unanchored here until \`sluice anchor\`)`
        : 'verified';
  if (r.provenance === 'unjournaled') return `history without journal: ${r.foreign} entries written by another tool, adopted by the next write`;
  const foreign = r.foreign > 0 ? `; ${r.foreign} history entries written outside sluice, adopted by the next write` : '';
  return `journal ${r.entries} entries, ${where}${foreign}`;
}
