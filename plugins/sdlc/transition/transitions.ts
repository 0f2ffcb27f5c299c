import { SluiceError, type GateResult } from '../../../core/index.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import type { AcceptedWaiver, Approval, GateSummary, HistoryEntry } from '../state/history-schema.ts';
import { summarizeResults } from '../gating/gate-verdict.ts';
import { phaseKey } from '../state/phase-id.ts';
import type { GateRunRecord, PhaseRecord, SdlcState } from '../state/state-schema.ts';

/**
 * Pure state transitions: each takes the state read under the lock and returns the next state,
 * never touching anything else. Keys other tools added are carried over by spreading. sluice
 * writes phase ids as strings, like the reference template.
 */

/** What the caller saw before running gates outside the lock. */
export interface ExpectedPosition {
  current: string;
  historyLength: number;
}

/** Refuses to write when another process moved the project while gates ran (PHASE_MOVED, exit 1). */
export function assertUnchanged(state: SdlcState, expected: ExpectedPosition, display: string): void {
  const now = phaseKey(state.current_phase);
  if (now !== expected.current || state.history.length !== expected.historyLength) {
    const what = now === expected.current ? `phase ${now} was re-entered or changed` : `the project moved to phase ${now}`;
    throw new SluiceError('PHASE_MOVED', {
      file: display,
      field: 'current_phase',
      message: `${what} while gates for phase ${expected.current} ran; nothing was written`,
      data: { expected: expected.current, current: now },
    });
  }
}

/** Results as stored: a gate's `data` is for its consumers and is dropped (G5's metrics are kept once, as the phase's locked_metrics). */
function storable(results: readonly GateResult[]): GateResult[] {
  return results.map((r) => {
    if (!('data' in r)) return r;
    const { data: _data, ...rest } = r;
    return rest as GateResult;
  });
}

const blankRecord = (phase: PhaseDefinition): PhaseRecord => ({
  name: phase.name,
  status: 'pending',
  entered_at: null,
  completed_at: null,
  gate_results: {},
  artifacts: [],
});

function record(state: SdlcState, phase: PhaseDefinition): PhaseRecord {
  return state.phases[phaseKey(phase.id)] ?? blankRecord(phase);
}

function activate(state: SdlcState, phase: PhaseDefinition, at: string): PhaseRecord {
  return { ...record(state, phase), status: 'active', entered_at: at, completed_at: null };
}

function moveTo(state: SdlcState, to: PhaseDefinition, phases: SdlcState['phases'], entry: HistoryEntry): SdlcState {
  return { ...state, current_phase: phaseKey(to.id), phase_name: to.name, phases, history: [...state.history, entry] };
}

export interface AdvanceInput {
  from: PhaseDefinition;
  to: PhaseDefinition;
  at: string;
  results: GateResult[];
  summary: GateSummary;
  approvals: Approval[];
  confirmedBy: string;
  justification?: string;
  /** G5's current values, locked on the phase being left. */
  lockedMetrics?: PhaseRecord['locked_metrics'];
}

/**
 * A completed phase's gate_results: the summary counts and who confirmed, under the key the
 * reference's advance writes for `--signed-by` (its handoff report's "Signed off by" column reads it).
 */
const completedSummary = (a: Pick<AdvanceInput, 'summary' | 'confirmedBy'>) => ({ ...a.summary, signed_off_by: a.confirmedBy });

/**
 * `sluice next --confirmed`: complete the current phase (its gate_results become the summary counts,
 * as the seed's advance step does), activate the next by order, append history with the full results.
 */
export function advanceState(state: SdlcState, a: AdvanceInput): SdlcState {
  const fromKey = phaseKey(a.from.id);
  const toKey = phaseKey(a.to.id);
  const completed: PhaseRecord = {
    ...record(state, a.from),
    status: 'completed',
    completed_at: a.at,
    gate_results: completedSummary(a),
    ...(a.lockedMetrics ? { locked_metrics: a.lockedMetrics } : {}),
  };
  const entry: HistoryEntry = {
    from: fromKey,
    to: toKey,
    at: a.at,
    gate_results: a.summary,
    justification:
      a.justification ??
      `All MUST gates passed${a.approvals.length ? `, ${a.approvals.length} manual gate${a.approvals.length > 1 ? 's' : ''} approved` : ''}; confirmed by ${a.confirmedBy}`,
    results: storable(a.results),
    approvals: a.approvals,
    confirmed_by: a.confirmedBy,
  };
  return moveTo(state, a.to, { ...state.phases, [fromKey]: completed, [toKey]: activate(state, a.to, a.at) }, entry);
}

/**
 * `sluice next --confirmed` on the terminal phase: it is signed off like any exit (completed, its
 * gate_results the summary, a history entry with the results, approvals and signer, `signoff: true`)
 * but nothing follows it, so no phase is active: the project is complete.
 */
export function signOffState(state: SdlcState, a: Omit<AdvanceInput, 'to'>): SdlcState {
  const key = phaseKey(a.from.id);
  const completed: PhaseRecord = { ...record(state, a.from), status: 'completed', completed_at: a.at, gate_results: completedSummary(a) };
  const entry: HistoryEntry = {
    from: key,
    to: key,
    at: a.at,
    gate_results: a.summary,
    justification:
      a.justification ??
      `Project signed off: all MUST gates passed${a.approvals.length ? `, ${a.approvals.length} manual gate${a.approvals.length > 1 ? 's' : ''} approved` : ''}; confirmed by ${a.confirmedBy}`,
    results: storable(a.results),
    approvals: a.approvals,
    confirmed_by: a.confirmedBy,
    signoff: true,
  };
  return { ...state, phases: { ...state.phases, [key]: completed }, history: [...state.history, entry] };
}

export interface RefreezeInput {
  phase: string;
  at: string;
  files: Record<string, string | null>;
  reason: string;
  confirmedBy: string;
}

/** `sluice refreeze`: new checksums for frozen files, with who and why; the phase does not move. */
export function refreezeState(state: SdlcState, r: RefreezeInput): SdlcState {
  const entry: HistoryEntry = {
    from: r.phase,
    to: r.phase,
    at: r.at,
    refreeze: true,
    frozen_files: r.files,
    justification: r.reason,
    confirmed_by: r.confirmedBy,
  };
  return { ...state, history: [...state.history, entry] };
}

export interface WaiverAcceptanceInput {
  phase: string;
  at: string;
  waivers: AcceptedWaiver[];
  reason: string;
  confirmedBy: string;
}

/** `sluice waivers accept`: a person accepts waivers the phase's gates found; the phase does not move. */
export function acceptWaiversState(state: SdlcState, w: WaiverAcceptanceInput): SdlcState {
  const entry: HistoryEntry = {
    from: w.phase,
    to: w.phase,
    at: w.at,
    waiver_acceptance: true,
    waivers: w.waivers,
    justification: w.reason,
    confirmed_by: w.confirmedBy,
  };
  return { ...state, history: [...state.history, entry] };
}

export interface SkipInput {
  from: PhaseDefinition;
  to: PhaseDefinition;
  at: string;
  justification: string;
  confirmedBy: string;
}

/** `sluice skip`: the current phase is marked skipped (no gates), the next by order becomes active. */
export function skipState(state: SdlcState, s: SkipInput): SdlcState {
  const fromKey = phaseKey(s.from.id);
  const toKey = phaseKey(s.to.id);
  const skipped: PhaseRecord = { ...record(state, s.from), status: 'skipped', completed_at: s.at };
  const entry: HistoryEntry = { from: fromKey, to: toKey, at: s.at, skipped: true, justification: s.justification, confirmed_by: s.confirmedBy };
  return moveTo(state, s.to, { ...state.phases, [fromKey]: skipped, [toKey]: activate(state, s.to, s.at) }, entry);
}

/**
 * `sluice reenter`: an earlier completed or skipped phase becomes active again. The phase being left
 * was never completed, so it returns to pending (its visit stays in history); phases between keep
 * their completed status until `next` reaches them again.
 */
export function reenterState(state: SdlcState, r: SkipInput): SdlcState {
  const fromKey = phaseKey(r.from.id);
  const toKey = phaseKey(r.to.id);
  const left: PhaseRecord = { ...record(state, r.from), status: 'pending', entered_at: null, completed_at: null };
  const entry: HistoryEntry = { from: fromKey, to: toKey, at: r.at, reentry: true, justification: r.justification, confirmed_by: r.confirmedBy };
  return moveTo(state, r.to, { ...state.phases, [fromKey]: left, [toKey]: activate(state, r.to, r.at) }, entry);
}

/**
 * `sluice gate`: the phase's latest results replace the previous ones (seed: overwritten each gate run).
 * They are stored as a map, the summary counts beside the `results` list: the reference's scripts read
 * a phase's gate_results as a map (its handoff report crashes on a list), and its audit expands the
 * `results` list into the same rows a bare list gave.
 */
export function recordGateResults(state: SdlcState, phase: PhaseDefinition, results: GateResult[]): SdlcState {
  const run: GateRunRecord = { ...summarizeResults(results), results: storable(results) };
  return { ...state, phases: { ...state.phases, [phaseKey(phase.id)]: { ...record(state, phase), gate_results: run } } };
}
