import { compareText } from '../../../core/index.ts';
import { type StoredGateResult, phaseKey, type SdlcState, type SignatureStatus, acceptancesOf, waiversOfResult } from '../../sdlc/index.ts';
import { latestResults } from './phase-views.ts';
import { text, transitionApprover } from './transition-approver.ts';

/** A gate is "always passing" only with this many results behind it; fewer prove nothing. */
export const ALWAYS_PASS_MIN_RESULTS = 3;
/** A gate failing in more than this share of its results is flagged. */
export const FAILING_OVER = 0.5;

export interface GateRates {
  gate: string;
  results: number;
  /** Passed on their merits; waived rows are counted apart, in `waived`. */
  passed: number;
  waived: number;
  failed: number;
  manual: number;
  passRate: number;
  failRate: number;
  manualRate: number;
  /** Phases whose runs included the gate. */
  phases: string[];
}

/** One recorded gate run: the results stored with an advance, or the latest run of a phase. */
export interface GateRun {
  phase: string;
  at: string | null;
  source: 'advance' | 'latest';
  results: StoredGateResult[];
}

/** One manual gate signed off: with `next --approve ID` or by the confirmation of the run that listed it. */
export interface ApprovalNote {
  phase: string;
  gate: string;
  /** The approved result id. */
  subject: string;
  at: string;
  signedBy: string;
  /** approve: named with --approve; confirmed: listed by a confirmed run; null: written by another tool. */
  via: 'approve' | 'confirmed' | null;
  justification: string | null;
}

/** A frozen file accepted again after a deliberate change (`sluice refreeze`). */
export interface RefreezeNote {
  phase: string;
  at: string;
  files: string[];
  approver: string | null;
  justification: string | null;
}

/** A SHOULD/MAY failure a transition went past: the project moved on despite it. */
export interface Override {
  kind: 'warning-accepted';
  phase: string;
  gate: string;
  /** The approved result id, or the failing SHOULD/MAY result's artifact/check. */
  subject: string;
  at: string;
  approver: string | null;
  justification: string | null;
}

/** A `WAIVED: who — why` line that let an artifact through G2, from the recorded runs. */
export interface WaiverNote {
  phase: string;
  gate: string;
  artifact: string | null;
  file: string;
  line: number | null;
  who: string;
  why: string;
  /** When the run was stored with an advance; null for a phase's latest run. */
  at: string | null;
  /** Ties the waiver to its acceptance: gate, file, who, why and markers hashed. */
  digest: string;
  /** The latest `sluice waivers accept` of this waiver in its phase; null: nobody accepted it. */
  acceptance: WaiverAcceptanceNote | null;
  /** Accepted as the profile asks: by anyone, or with a verified signature where signatures are required. */
  accepted: boolean;
}

/** Who accepted a waiver, when and why (the history entry at `index`; `sluice audit` verifies its signature). */
export interface WaiverAcceptanceNote {
  index: number;
  at: string;
  /** The free-text name recorded (unverified unless the entry's signature verifies). */
  by: string | null;
  justification: string | null;
  /** The acceptance's signature: `unchecked` until `sluice audit` verifies it with ssh-keygen. */
  signature: SignatureStatus | 'unchecked';
  /** The verified principal (signature verified only). */
  signer: string | null;
}

export interface TransitionNote {
  from: string;
  to: string;
  at: string;
  justification: string | null;
  approver: string | null;
}

/** `sluice audit --json`. */
export interface GateAudit {
  project: string;
  runs: number;
  transitions: { advances: number; skips: number; reentries: number; signoffs: number; waiverAcceptances: number };
  gates: GateRates[];
  /** Gates that never failed (maybe too lenient), named with their counts like every list of the audit. */
  alwaysPassing: { gate: string; results: number; passRate: number }[];
  failingOverHalf: { gate: string; results: number; failRate: number }[];
  approvals: ApprovalNote[];
  overrides: Override[];
  waivers: WaiverNote[];
  /** What the profile asks of a waiver (set by `sluice audit`, which reads the profile). */
  waiverPolicy?: { acceptance: boolean; signed: boolean };
  refreezes: RefreezeNote[];
  skips: TransitionNote[];
  reentries: TransitionNote[];
  thresholds: { alwaysPassMinResults: number; failingOver: number };
}

const stable = (value: unknown) => JSON.stringify(value);

/**
 * The gate runs the state records, without counting one twice: every advance's stored results,
 * plus each phase's latest run when it is not the run already stored with that phase's last advance.
 */
export function gateRuns(state: SdlcState): GateRun[] {
  const runs: GateRun[] = [];
  const lastAdvance = new Map<string, string>();
  for (const h of state.history) {
    if (h.reentry || h.skipped || !h.results) continue;
    runs.push({ phase: phaseKey(h.from), at: h.at, source: 'advance', results: h.results });
    lastAdvance.set(phaseKey(h.from), stable(h.results));
  }
  for (const [id, record] of Object.entries(state.phases)) {
    const latest = latestResults(record.gate_results);
    if (latest.length === 0 || lastAdvance.get(id) === stable(latest)) continue;
    runs.push({ phase: id, at: null, source: 'latest', results: latest });
  }
  return runs;
}

/**
 * The reference's per-discipline sign-offs (`advance_phase.py --discipline-signoff D:SECTION:NAME`):
 * a `sign_offs` list on the completed phase, each stamped with the time of the advance it came with.
 */
function disciplineSignOffs(state: SdlcState, phase: string, at: string): { discipline: string; section: string; by: string }[] {
  const list = (state.phases[phase] as Record<string, unknown> | undefined)?.sign_offs;
  if (!Array.isArray(list)) return [];
  return list.flatMap((e) => {
    const o = (typeof e === 'object' && e !== null ? e : {}) as Record<string, unknown>;
    const by = text(o.by);
    return by && o.at === at ? [{ discipline: text(o.discipline) ?? 'discipline', section: text(o.section) ?? '', by }] : [];
  });
}

/**
 * Pure: gate effectiveness over a project's recorded runs (INFO rows are reports, not verdicts, and
 * are left out), the gates that never fail and the ones that mostly do, and every human decision
 * that let a transition through, each kind apart: manual approvals, accepted SHOULD/MAY failures
 * (overrides), skips, re-entries, and re-freezes of frozen files.
 */
export function auditGates(state: SdlcState): GateAudit {
  const runs = gateRuns(state);
  const acceptances = new Map([...new Set(runs.map((r) => r.phase))].map((phase) => [phase, acceptancesOf(state, phase)]));
  const byGate = new Map<string, GateRates>();
  const waivers: WaiverNote[] = [];
  const seenWaivers = new Set<string>();
  for (const run of runs) {
    for (const r of run.results) {
      for (const w of waiversOfResult(r)) {
        const key = stable([run.phase, w.file, w.who, w.why]);
        if (seenWaivers.has(key)) continue;
        seenWaivers.add(key);
        const accepted = acceptances.get(run.phase)?.get(w.digest)?.at(-1);
        waivers.push({
          phase: run.phase,
          gate: r.gate,
          artifact: r.artifact ?? null,
          file: w.file,
          line: w.line ?? null,
          who: w.who,
          why: w.why,
          at: run.at,
          digest: w.digest,
          acceptance: accepted
            ? {
                index: accepted.index,
                at: accepted.entry.at,
                by: transitionApprover(accepted.entry),
                justification: text(accepted.entry.justification),
                signature: accepted.entry.signature ? 'unchecked' : 'unsigned',
                signer: null,
              }
            : null,
          accepted: accepted !== undefined,
        });
      }
      if (r.severity === 'INFO') continue;
      const g = byGate.get(r.gate) ?? {
        gate: r.gate,
        results: 0,
        passed: 0,
        waived: 0,
        failed: 0,
        manual: 0,
        passRate: 0,
        failRate: 0,
        manualRate: 0,
        phases: [],
      };
      g.results++;
      if (r.passed === true && waiversOfResult(r).length > 0) g.waived++;
      else if (r.passed === true) g.passed++;
      else if (r.passed === false) g.failed++;
      else g.manual++;
      if (!g.phases.includes(run.phase)) g.phases.push(run.phase);
      byGate.set(r.gate, g);
    }
  }
  const round = (n: number) => Math.round(n * 1000) / 1000;
  const gates = [...byGate.values()]
    .map((g) => ({ ...g, passRate: round(g.passed / g.results), failRate: round(g.failed / g.results), manualRate: round(g.manual / g.results) }))
    .sort((a, b) => compareText(a.gate, b.gate));

  const approvals: ApprovalNote[] = [];
  const overrides: Override[] = [];
  const refreezes: RefreezeNote[] = [];
  const skips: TransitionNote[] = [];
  const reentries: TransitionNote[] = [];
  let advances = 0;
  let signoffs = 0;
  let waiverAcceptances = 0;
  for (const h of state.history) {
    const note: TransitionNote = {
      from: phaseKey(h.from),
      to: phaseKey(h.to),
      at: h.at,
      justification: text(h.justification),
      approver: transitionApprover(h),
    };
    if (h.waiver_acceptance) waiverAcceptances++;
    else if (h.refreeze)
      refreezes.push({ phase: note.from, at: h.at, files: Object.keys(h.frozen_files ?? {}), approver: note.approver, justification: note.justification });
    else if (h.reentry) reentries.push(note);
    else if (h.skipped) skips.push(note);
    else {
      if (h.signoff) signoffs++;
      else advances++;
      // The reference's advance records one sign-off for the whole transition (`--signed-by`), no per-gate approvals.
      const signedOff = h.approvals === undefined ? text((h.gate_results as Record<string, unknown> | undefined)?.signed_off_by) : null;
      if (signedOff)
        approvals.push({
          phase: note.from,
          gate: 'sign-off',
          subject: `${note.from} → ${note.to}`,
          at: h.at,
          signedBy: signedOff,
          via: null,
          justification: note.justification,
        });
      for (const d of disciplineSignOffs(state, note.from, h.at))
        approvals.push({
          phase: note.from,
          gate: `sign-off:${d.discipline}`,
          subject: d.section,
          at: h.at,
          signedBy: d.by,
          via: null,
          justification: note.justification,
        });
      for (const a of h.approvals ?? [])
        approvals.push({
          phase: note.from,
          gate: gateOfResult(h.results, a.gate),
          subject: a.gate,
          at: a.at,
          signedBy: a.signed_by,
          via: a.via ?? null,
          justification: note.justification,
        });
      for (const r of h.results ?? []) {
        if (r.passed !== false || r.severity === 'MUST' || r.severity === 'INFO') continue;
        overrides.push({
          kind: 'warning-accepted',
          phase: note.from,
          gate: r.gate,
          subject: r.artifact ?? r.check ?? r.message,
          at: h.at,
          approver: note.approver,
          justification: note.justification,
        });
      }
    }
  }
  return {
    project: state.project_name,
    runs: runs.length,
    transitions: { advances, skips: skips.length, reentries: reentries.length, signoffs, waiverAcceptances },
    gates,
    alwaysPassing: gates
      .filter((g) => g.failed === 0 && g.manual === 0 && g.waived === 0 && g.results >= ALWAYS_PASS_MIN_RESULTS)
      .map((g) => ({ gate: g.gate, results: g.results, passRate: g.passRate })),
    failingOverHalf: gates.filter((g) => g.failRate > FAILING_OVER).map((g) => ({ gate: g.gate, results: g.results, failRate: g.failRate })),
    approvals,
    overrides,
    waivers,
    refreezes,
    skips,
    reentries,
    thresholds: { alwaysPassMinResults: ALWAYS_PASS_MIN_RESULTS, failingOver: FAILING_OVER },
  };
}

/** The gate a result id belongs to (`G7:scope-...` → G7-exit-criteria), read from the stored results. */
function gateOfResult(results: readonly StoredGateResult[] | undefined, id: string): string {
  return results?.find((r) => r.id === id)?.gate ?? id.split(':')[0];
}

/** One gate's rates in two projects, for `audit --compare`. */
export interface GateComparison {
  gate: string;
  a: Pick<GateRates, 'results' | 'passRate' | 'failRate' | 'manualRate'> | null;
  b: Pick<GateRates, 'results' | 'passRate' | 'failRate' | 'manualRate'> | null;
  /** b − a pass rate, when both projects ran the gate. */
  passRateDelta: number | null;
}

export function compareAudits(a: GateAudit, b: GateAudit): GateComparison[] {
  const pick = (g: GateRates | undefined) => (g ? { results: g.results, passRate: g.passRate, failRate: g.failRate, manualRate: g.manualRate } : null);
  const names = [...new Set([...a.gates, ...b.gates].map((g) => g.gate))].sort((x, y) => compareText(x, y));
  return names.map((gate) => {
    const ga = pick(a.gates.find((g) => g.gate === gate));
    const gb = pick(b.gates.find((g) => g.gate === gate));
    return { gate, a: ga, b: gb, passRateDelta: ga && gb ? Math.round((gb.passRate - ga.passRate) * 1000) / 1000 : null };
  });
}
