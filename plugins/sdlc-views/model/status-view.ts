import { type HistoryEntry, phaseKey, type SdlcState } from '../../sdlc/index.ts';
import type { ArtifactView, PhaseView } from './phase-views.ts';
import { text, transitionApprover } from './transition-approver.ts';

export const STATUS_HISTORY_LIMIT = 10;

export interface HistoryLine {
  from: string;
  to: string;
  at: string;
  kind: 'advance' | 'skip' | 'reentry' | 'signoff' | 'refreeze' | 'waiver-acceptance';
  gateSummary: { passed: number; failed: number; manual: number } | null;
  justification: string | null;
  approver: string | null;
  /** The principal of the entry's SSH signature (checked by `sluice audit`); null when unsigned. */
  signedBy: string | null;
}

export interface StatusPhaseRow {
  id: string;
  name: string;
  display: string;
  slug: string;
  status: PhaseView['status'];
  current: boolean;
  enteredAt: string | null;
  completedAt: string | null;
  artifacts: { files: number; required: number; requiredPresent: number };
}

/** `sluice status --json`. */
export interface StatusView {
  project: string;
  profile: string;
  projectType: string | null;
  createdAt: string;
  currentPhase: { id: string; name: string; display: string; status: PhaseView['status']; terminal: boolean };
  progress: { done: number; total: number; completed: number; skipped: number; percent: number };
  phases: StatusPhaseRow[];
  /** The last entries of the history, oldest first. */
  history: HistoryLine[];
  historyTotal: number;
}

export function historyLine(h: HistoryEntry): HistoryLine {
  const e = h as HistoryEntry & Record<string, unknown>;
  return {
    from: phaseKey(h.from),
    to: phaseKey(h.to),
    at: h.at,
    kind: h.waiver_acceptance ? 'waiver-acceptance' : h.refreeze ? 'refreeze' : h.signoff ? 'signoff' : h.reentry ? 'reentry' : h.skipped ? 'skip' : 'advance',
    gateSummary: h.gate_results ? { passed: h.gate_results.passed, failed: h.gate_results.failed, manual: h.gate_results.manual } : null,
    justification: text(h.justification),
    approver: transitionApprover(e),
    signedBy: text(h.signature?.principal),
  };
}

/**
 * Pure: the dashboard. `files` counts what is in each phase's artifact folder; `artifacts` are the
 * registry's entries with their disk state, from which required-and-applicable presence is counted.
 */
export function statusView(
  state: SdlcState,
  phases: readonly PhaseView[],
  artifacts: ReadonlyMap<string, { files: number; list: readonly ArtifactView[] }>,
  /** The history's length and last entries, when the state was read without them (a long history). */
  history: { total: number; recent: readonly HistoryEntry[] } = { total: state.history.length, recent: state.history.slice(-STATUS_HISTORY_LIMIT) },
): StatusView {
  const current = phases.find((p) => p.current) ?? phases[0];
  const completed = phases.filter((p) => p.status === 'completed').length;
  const skipped = phases.filter((p) => p.status === 'skipped').length;
  const done = completed + skipped;
  return {
    project: state.project_name,
    profile: state.profile_id,
    projectType: state.project_type ?? null,
    createdAt: state.created_at,
    currentPhase: { id: current.id, name: current.name, display: current.display, status: current.status, terminal: current.terminal },
    progress: { done, total: phases.length, completed, skipped, percent: phases.length ? Math.round((done / phases.length) * 100) : 0 },
    phases: phases.map((p) => {
      const a = artifacts.get(p.id);
      const required = (a?.list ?? []).filter((x) => x.kind === 'required' && x.applies);
      return {
        id: p.id,
        name: p.name,
        display: p.display,
        slug: p.slug,
        status: p.status,
        current: p.current,
        enteredAt: p.enteredAt,
        completedAt: p.completedAt,
        artifacts: { files: a?.files ?? 0, required: required.length, requiredPresent: required.filter((x) => x.exists).length },
      };
    }),
    history: history.recent.slice(-STATUS_HISTORY_LIMIT).map(historyLine),
    historyTotal: history.total,
  };
}
