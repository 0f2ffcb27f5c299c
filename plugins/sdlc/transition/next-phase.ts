import { SluiceError, type GateResult, type Kernel } from '../../../core/index.ts';
import { approvalId } from '../gating/gate-verdict.ts';
import { runPhaseGates, type PhaseGateRun } from '../gating/run-phase-gates.ts';
import { openProject } from '../project/open-project.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import type { Approval, HistoryEntry } from '../state/history-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import type { PhaseRecord, ProjectType } from '../state/state-schema.ts';
import { resolveSigner, signedUpdate, type SignOption } from '../signing/sign-transition.ts';
import { askBeforeAdvance } from './ask-before-advance.ts';
import { confirmer } from './confirmer.ts';
import { advanceState, assertUnchanged } from './transitions.ts';

export interface NextOptions {
  confirmed?: boolean;
  /** Ids of manual results being approved (`--approve`, repeatable). */
  approve?: string[];
  signedBy?: string;
  /** `--sign [key]`: sign the advance with the person's SSH key. */
  sign?: SignOption;
  justification?: string;
  signal?: AbortSignal;
}

/** The seed's decision tree outcomes. */
export type NextStatus = 'complete' | 'blocked' | 'review-required' | 'dry-run' | 'advanced';

export interface NextReport {
  status: NextStatus;
  /** 0 complete/dry-run/advanced, 1 blocked/review-required. */
  exitCode: 0 | 1;
  phase: PhaseDefinition;
  next?: PhaseDefinition;
  run?: PhaseGateRun;
  /** Manual results still lacking an approval. */
  unapproved: GateResult[];
  approvals: Approval[];
  /** The history entry written (advanced only). */
  entry?: HistoryEntry;
  artifactDir?: string;
  projectType?: ProjectType | null;
}

/** Checks --approve ids against the manual results: an unknown id is a usage error listing the valid ones. */
function collectApprovals(run: PhaseGateRun, o: NextOptions, at: string): Approval[] {
  const ids = [...new Set(o.approve ?? [])];
  if (ids.length === 0) return [];
  if (!o.signedBy?.trim()) throw new SluiceError('USAGE', { field: '--signed-by', message: '--approve needs --signed-by NAME: approvals record who signed' });
  const manualIds = run.manual.map(approvalId);
  const unknown = ids.filter((id) => !manualIds.includes(id));
  if (unknown.length > 0) {
    throw new SluiceError('USAGE', { field: '--approve', message: `${unknown.join(', ')} ${unknown.length > 1 ? 'are not manual gates' : 'is not a manual gate'} of phase ${run.phase}; manual gates: ${manualIds.join(', ') || 'none'}` });
  }
  return ids.map((gate) => ({ gate, signed_by: o.signedBy!.trim(), at }));
}

/** The metric values G5 reported for locking at this exit. */
function metricsToLock(results: readonly GateResult[]): PhaseRecord['locked_metrics'] | undefined {
  const row = results.find((r) => r.gate === 'G5-consistency' && r.id === 'G5:metrics');
  return row && row.metrics && typeof row.metrics === 'object' ? (row.metrics as PhaseRecord['locked_metrics']) : undefined;
}

/**
 * `sluice next`, the seed's decision tree: terminal → complete; MUST failures → blocked; manual results
 * not each approved → review required; no --confirmed → dry run; else advance to the next phase by
 * order. Gates run outside the state lock; the write re-checks that nobody moved the project meanwhile.
 */
export async function nextPhase(kernel: Kernel, options: NextOptions = {}): Promise<NextReport> {
  const project = await openProject(kernel);
  // With --sign the person is known (and checked against allowed_signers) before any gate runs.
  const signer = await resolveSigner(kernel, project, options.sign);
  const o = { ...options, signedBy: options.signedBy ?? signer?.principal };
  const phase = project.model.require(project.state.current_phase, { file: kernel.display(project.paths.state), field: 'current_phase' });
  const base = { phase, unapproved: [], approvals: [], projectType: project.state.project_type };
  if (phase.terminal) return { ...base, status: 'complete', exitCode: 0 };
  const next = project.model.next(phase.id);
  if (!next) throw new SluiceError('TRANSITION_INVALID', { file: project.registryDisplay, message: `phase ${phaseKey(phase.id)} is the last by order but not marked terminal` });

  const run = await runPhaseGates(kernel, project, phase, o.signal);
  if (run.blockers.length > 0) return { ...base, next, run, status: 'blocked', exitCode: 1 };
  const at = kernel.host.now().toISOString();
  const approvals = collectApprovals(run, o, at);
  const unapproved = run.manual.filter((r) => !approvals.some((a) => a.gate === approvalId(r)));
  if (unapproved.length > 0) return { ...base, next, run, approvals, unapproved, status: 'review-required', exitCode: 1 };
  if (!o.confirmed) return { ...base, next, run, approvals, status: 'dry-run', exitCode: 0 };

  const expected = { current: phaseKey(phase.id), historyLength: project.state.history.length };
  const confirmedBy = confirmer(kernel.host, o.signedBy);
  const write = await signedUpdate(kernel, project, signer, `advancing phase ${expected.current}`, (state) =>
    advanceState(state, { from: phase, to: next, at, results: run.results, summary: run.summary, approvals, confirmedBy, justification: o.justification, lockedMetrics: metricsToLock(run.results) }),
  );
  await askBeforeAdvance(kernel, { projectRoot: project.root, kind: 'advance', from: expected.current, to: phaseKey(next.id), results: run.results, approvals, ...(o.justification ? { justification: o.justification } : {}) });
  const display = kernel.display(project.paths.state);
  const { after } = await kernel.store.update(
    project.stateFile,
    (state) => {
      assertUnchanged(state, expected, display);
      return write(state);
    },
    { purpose: `sluice next ${expected.current} → ${phaseKey(next.id)}` },
  );
  const entry = after.history[after.history.length - 1];
  await kernel.hooks.call('phase:advanced', { projectRoot: project.root, kind: 'advance', from: expected.current, to: phaseKey(next.id), entry });
  return { ...base, next, run, approvals, status: 'advanced', exitCode: 0, entry, artifactDir: project.paths.artifactDirRel(next.slug) };
}
