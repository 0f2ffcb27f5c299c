import { resultId } from '../../../core/index.ts';
import {
  type ComplianceFile,
  type PhaseModel,
  type PhaseDefinition,
  proseExitConditions,
  requiredArtifacts,
  type RequiredArtifact,
  type StoredGateResult,
  type Approval,
  type HistoryEntry,
  phaseKey,
  type PhaseStatus,
  type SdlcState,
} from '../../sdlc/index.ts';
import { text } from './transition-approver.ts';

/** An artifact as the views show it: the registry's entry plus what is on disk. */
export interface ArtifactView extends RequiredArtifact {
  kind: 'required' | 'optional' | 'other';
  exists: boolean;
}

/** A manual judgement a person still has to sign, with the id `sluice next --approve` takes. */
export interface PendingJudgement {
  id?: string;
  gate: string;
  text: string;
  /** `gate run`: from the latest results; `registry`/`compliance`: what the next gate run will ask. */
  source: 'gate run' | 'registry' | 'compliance';
}

export interface SignedJudgement extends Approval {
  /** When the transition carrying the approval happened. */
  transitionAt: string;
  /** The principal of the transition's SSH signature, if signed. */
  signedPrincipal: string | null;
}

/** Everything the views say about one phase, derived from state + registry (+ disk facts passed in). */
export interface PhaseView {
  id: string;
  name: string;
  display: string;
  slug: string;
  order: number;
  description?: string;
  terminal: boolean;
  continuous: boolean;
  status: PhaseStatus;
  current: boolean;
  enteredAt: string | null;
  completedAt: string | null;
  /** Results of the latest gate run of the phase, INFO rows included. */
  gateResults: StoredGateResult[];
  /** `state`: `phases.<id>.gate_results`; `history`: the results stored with the phase's last advance. */
  gateResultsFrom: 'state' | 'history' | 'none';
  pending: PendingJudgement[];
  signed: SignedJudgement[];
  /** History entries that left or entered this phase, oldest first. */
  transitions: HistoryEntry[];
}

/**
 * The latest results as a list: sluice writes a map with a `results` list (older sluice a bare list);
 * `{}` (never run) and summary-only maps give none.
 */
export function latestResults(gateResults: unknown): StoredGateResult[] {
  if (Array.isArray(gateResults)) return gateResults as StoredGateResult[];
  const listed = (gateResults as { results?: unknown } | null | undefined)?.results;
  return Array.isArray(listed) ? (listed as StoredGateResult[]) : [];
}

/**
 * The approvals a transition records: sluice's per-result `approvals`, or the one sign-off of the
 * whole transition the reference's `advance_phase.py --signed-by` writes into its gate_results.
 */
function approvalsOf(h: HistoryEntry): Approval[] {
  if (h.approvals) return h.approvals;
  const by = text((h.gate_results as Record<string, unknown> | undefined)?.signed_off_by);
  return by && !h.skipped && !h.reentry ? [{ gate: 'sign-off', signed_by: by, at: h.at }] : [];
}

/**
 * Pure: the view of one phase. Judgements still to sign are the manual results of the latest run
 * while the phase is open; before any run, the questions the run will ask (registry prose exit
 * conditions and manual compliance checks). Completed and skipped phases have none left.
 */
export function phaseView(state: SdlcState, phase: PhaseDefinition, compliance: readonly { framework: string; value: ComplianceFile }[]): PhaseView {
  const id = phaseKey(phase.id);
  const record = state.phases[id];
  const status: PhaseStatus = record?.status ?? 'pending';
  const fromState = latestResults(record?.gate_results);
  const lastAdvance = state.history.filter((h) => phaseKey(h.from) === id && !h.reentry && !h.skipped && h.results?.length).at(-1);
  const gateResults = fromState.length ? fromState : (lastAdvance?.results ?? []);
  const gateResultsFrom = fromState.length ? 'state' : lastAdvance ? 'history' : 'none';
  const transitions = state.history.filter((h) => phaseKey(h.from) === id || phaseKey(h.to) === id);
  const signed = state.history
    .filter((h) => phaseKey(h.from) === id)
    .flatMap((h) => approvalsOf(h).map((a) => ({ ...a, transitionAt: h.at, signedPrincipal: h.signature?.principal ?? null })));
  let pending: PendingJudgement[] = [];
  if (status === 'active' || status === 'pending') {
    const manual = gateResults.filter((r) => r.passed === null && r.severity !== 'INFO');
    if (manual.length > 0) pending = manual.map((r) => ({ id: r.id, gate: r.gate, text: r.check ?? r.artifact ?? r.message, source: 'gate run' }));
    else if (gateResults.length === 0) pending = expectedJudgements(phase, compliance);
  }
  return {
    id,
    name: phase.name,
    display: phase.display ?? phase.name,
    slug: phase.slug,
    order: phase.order,
    description: phase.description,
    terminal: phase.terminal === true,
    continuous: phase.continuous === true,
    status,
    current: phaseKey(state.current_phase) === id,
    enteredAt: record?.entered_at ?? null,
    completedAt: record?.completed_at ?? null,
    gateResults,
    gateResultsFrom,
    pending,
    signed,
    transitions,
  };
}

/** What the phase's gate run will put in front of a person, with the ids G7 gives them. */
function expectedJudgements(phase: PhaseDefinition, compliance: readonly { framework: string; value: ComplianceFile }[]): PendingJudgement[] {
  const taken = new Set<string>();
  const prose = proseExitConditions(phase).map(
    (text): PendingJudgement => ({ id: resultId('G7', text, taken), gate: 'G7-exit-criteria', text, source: 'registry' }),
  );
  const checks = compliance.flatMap(({ framework, value }) =>
    value.gates
      .filter((g) => g.check_type === 'manual' && phaseKey(g.phase) === phaseKey(phase.id))
      .map((g): PendingJudgement => ({ id: g.id, gate: `G4-compliance (${framework})`, text: g.name, source: 'compliance' })),
  );
  return [...prose, ...checks];
}

/** Every phase in registry order. */
export function phaseViews(state: SdlcState, model: PhaseModel, compliance: readonly { framework: string; value: ComplianceFile }[]): PhaseView[] {
  return model.phases.map((p) => phaseView(state, p, compliance));
}

/**
 * The artifacts a phase names, required (with `root` and `required_for` resolved by the registry's
 * own rules) then optional, each marked with whether it exists. `exists` is the one disk fact, passed in.
 */
export function phaseArtifacts(phase: PhaseDefinition, projectType: SdlcState['project_type'], exists: (rel: string) => boolean): ArtifactView[] {
  const required = requiredArtifacts(phase, projectType).map((a): ArtifactView => ({ ...a, kind: 'required', exists: exists(a.rel) }));
  // Optional entries have the same shape; resolve them with the same rules (and no exit conditions).
  const optionalPhase: PhaseDefinition = { ...phase, exit_gate: undefined, artifacts: { required: phase.artifacts?.optional ?? [] } };
  const optional = requiredArtifacts(optionalPhase, projectType).map((a): ArtifactView => ({ ...a, kind: 'optional', exists: exists(a.rel) }));
  return [...required, ...optional];
}
