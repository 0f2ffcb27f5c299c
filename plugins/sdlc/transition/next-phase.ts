import { gateData, SluiceError, type GateResult, type Kernel } from '../../../core/index.ts';
import type { ConsistencyData } from '../../../gates/index.ts';
import { runPhaseGates, type PhaseGateRun } from '../gating/run-phase-gates.ts';
import { openProject } from '../project/open-project.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import type { Approval, HistoryEntry } from '../state/history-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import type { PhaseRecord, ProjectType } from '../state/state-schema.ts';
import { askBeforeAdvance } from './ask-before-advance.ts';
import { confirmer } from './confirmer.ts';
import { resolveSigner, signedUpdate, type SignOption } from '../signing/sign-transition.ts';
import { approveManualResults } from './approvals.ts';
import { advanceState, signOffState } from './transitions.ts';
import { updateIfUnchanged } from './update-if-unchanged.ts';

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
export type NextStatus = 'complete' | 'blocked' | 'review-required' | 'dry-run' | 'advanced' | 'signed-off';

export interface NextReport {
  status: NextStatus;
  /** 0 complete/dry-run/advanced/signed-off, 1 blocked/review-required. */
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
  /** The project's name as `.sdlc/state.yaml` records it (what CI reports show). */
  projectName: string;
  /** The profile asks for an --approve per manual gate (review-required only). */
  perGateApproval?: boolean;
}

/** The metric values G5 reported for locking at this exit (its typed `data`, checked by the kernel against G5's schema). */
function metricsToLock(results: readonly GateResult[]): PhaseRecord['locked_metrics'] | undefined {
  return gateData<ConsistencyData>({ id: 'G5-consistency' }, results)?.metrics;
}

/**
 * `sluice next`, the seed's decision tree: MUST failures → blocked; manual results without a sign-off
 * → review required (`--confirmed` signs every listed one off unless the profile asks for per-gate
 * approval, see approvals.ts); no --confirmed → dry run; else advance to the next phase by order. The
 * terminal phase is signed off the same way (it becomes completed, the project complete); once it is,
 * `next` reports "Already complete" and writes nothing. Gates run outside the state lock; the write
 * re-checks that nobody moved the project meanwhile.
 */
export async function nextPhase(kernel: Kernel, options: NextOptions = {}): Promise<NextReport> {
  const project = await openProject(kernel, { verifyFrozen: true });
  // With --sign the person is known (and checked against allowed_signers) before any gate runs.
  const signer = await resolveSigner(kernel, project, options.sign);
  const o = { ...options, signedBy: options.signedBy ?? signer?.principal };
  const phase = project.model.require(project.state.current_phase, { file: kernel.display(project.paths.state), field: 'current_phase' });
  const base = { phase, unapproved: [], approvals: [], projectType: project.state.project_type, projectName: project.state.project_name };
  const fromKey = phaseKey(phase.id);
  if (phase.terminal && project.state.phases[fromKey]?.status === 'completed') return { ...base, status: 'complete', exitCode: 0 };
  const next = phase.terminal ? undefined : project.model.next(phase.id);
  if (!phase.terminal && !next)
    throw new SluiceError('TRANSITION_INVALID', { file: project.registryDisplay, message: `phase ${fromKey} is the last by order but not marked terminal` });

  const run = await runPhaseGates(kernel, project, phase, o.signal);
  if (run.blockers.length > 0) return { ...base, next, run, status: 'blocked', exitCode: 1 };
  const at = kernel.host.now().toISOString();
  const confirmedBy = confirmer(kernel.host, o.signedBy);
  const { approvals, unapproved } = approveManualResults(run.manual, run.phase, {
    approve: o.approve ?? [],
    signedBy: o.signedBy?.trim() || undefined,
    confirmed: o.confirmed === true,
    confirmer: confirmedBy,
    perGateApproval: project.profile.sluice?.per_gate_approval === true,
    at,
  });
  if (unapproved.length > 0)
    return {
      ...base,
      next,
      run,
      approvals,
      unapproved,
      status: 'review-required',
      exitCode: 1,
      perGateApproval: project.profile.sluice?.per_gate_approval === true,
    };
  if (!o.confirmed) return { ...base, next, run, approvals, status: 'dry-run', exitCode: 0 };

  const expected = { current: fromKey, historyLength: project.state.history.length };
  const toKey = next ? phaseKey(next.id) : fromKey;
  await askBeforeAdvance(kernel, {
    projectRoot: project.root,
    kind: 'advance',
    from: fromKey,
    to: toKey,
    results: run.results,
    approvals,
    ...(o.justification ? { justification: o.justification } : {}),
  });
  const input = {
    from: phase,
    at,
    results: run.results,
    summary: run.summary,
    approvals,
    confirmedBy,
    justification: o.justification,
    lockedMetrics: metricsToLock(run.results),
  };
  const write = await signedUpdate(kernel, project, signer, next ? `advancing phase ${fromKey}` : `signing off phase ${fromKey}`, (state) =>
    next ? advanceState(state, { ...input, to: next }) : signOffState(state, input),
  );
  const after = await updateIfUnchanged(kernel, project, expected, write, `sluice next ${fromKey} → ${next ? toKey : 'signed off'}`);
  const entry = after.history[after.history.length - 1];
  await kernel.hooks.call('phase:advanced', { projectRoot: project.root, kind: 'advance', from: fromKey, to: toKey, entry });
  if (!next) return { ...base, run, approvals, status: 'signed-off', exitCode: 0, entry };
  return { ...base, next, run, approvals, status: 'advanced', exitCode: 0, entry, artifactDir: project.paths.artifactDirRel(next.slug) };
}
