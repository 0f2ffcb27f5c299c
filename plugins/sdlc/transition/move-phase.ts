import { SluiceError, type Kernel } from '../../../core/index.ts';
import { openProject, type SdlcProject } from '../project/open-project.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import type { HistoryEntry } from '../state/history-schema.ts';
import type { ProjectType } from '../state/state-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import type { TransitionKind } from '../sdlc-hooks.ts';
import { resolveSigner, signedUpdate, type SignOption } from '../signing/sign-transition.ts';
import { askBeforeAdvance } from './ask-before-advance.ts';
import { confirmer } from './confirmer.ts';
import { reenterState, skipState } from './transitions.ts';
import { updateIfUnchanged } from './update-if-unchanged.ts';

export interface MoveReport {
  kind: 'skip' | 'reenter';
  from: PhaseDefinition;
  to: PhaseDefinition;
  entry: HistoryEntry;
  artifactDir: string;
  projectType?: ProjectType | null;
}

export interface MoveOptions {
  justification: string;
  signedBy?: string;
  /** `--sign [key]`: sign the move with the person's SSH key. */
  sign?: SignOption;
}

function requireJustification(text: string | undefined): string {
  const j = text?.trim();
  if (!j) throw new SluiceError('USAGE', { field: '--justification', message: 'a justification is required: it is recorded in history' });
  return j;
}

/** Shared tail of skip and re-entry: veto hook, locked write with the moved-meanwhile check, event. */
async function writeMove(
  kernel: Kernel,
  project: SdlcProject,
  kind: Extract<TransitionKind, 'skip' | 'reenter'>,
  from: PhaseDefinition,
  to: PhaseDefinition,
  o: MoveOptions,
): Promise<MoveReport> {
  const justification = requireJustification(o.justification);
  const expected = { current: phaseKey(from.id), historyLength: project.state.history.length };
  const move = { from: phaseKey(from.id), to: phaseKey(to.id) };
  const at = kernel.host.now().toISOString();
  const signer = await resolveSigner(kernel, project, o.sign);
  const confirmedBy = confirmer(kernel.host, o.signedBy ?? signer?.principal);
  const input = { from, to, at, justification, confirmedBy };
  const write = await signedUpdate(
    kernel,
    project,
    signer,
    `${kind === 'skip' ? 'skipping' : 're-entering'} phase ${kind === 'skip' ? move.from : move.to}`,
    (state) => (kind === 'skip' ? skipState(state, input) : reenterState(state, input)),
  );
  await askBeforeAdvance(kernel, { projectRoot: project.root, kind, ...move, results: [], approvals: [], justification });
  const after = await updateIfUnchanged(kernel, project, expected, write, `sluice ${kind} ${move.from} → ${move.to}`);
  const entry = after.history[after.history.length - 1];
  await kernel.hooks.call('phase:advanced', { projectRoot: project.root, kind, ...move, entry });
  return { kind, from, to, entry, artifactDir: project.paths.artifactDirRel(to.slug), projectType: after.project_type };
}

/** `sluice skip`: the current phase is skipped without gates; the next phase by order becomes active. */
export async function skipPhase(kernel: Kernel, o: MoveOptions): Promise<MoveReport> {
  requireJustification(o.justification);
  const project = await openProject(kernel, { verifyFrozen: true });
  const from = project.model.require(project.state.current_phase);
  const to = project.model.next(from.id);
  if (!to) throw new SluiceError('TRANSITION_INVALID', { message: `phase ${phaseKey(from.id)} is terminal: there is no phase to skip to` });
  return writeMove(kernel, project, 'skip', from, to, o);
}

/** `sluice reenter PHASE`: an earlier completed or skipped phase becomes active again (`reentry: true`). */
export async function reenterPhase(kernel: Kernel, target: string, o: MoveOptions): Promise<MoveReport> {
  requireJustification(o.justification);
  const project = await openProject(kernel, { verifyFrozen: true });
  const from = project.model.require(project.state.current_phase);
  const to = project.model.require(target, { field: 'PHASE' });
  if (to.order >= from.order) {
    throw new SluiceError('TRANSITION_INVALID', {
      field: 'PHASE',
      message: `re-entry goes back: phase ${phaseKey(to.id)} is not before the current phase ${phaseKey(from.id)} (move forward with next or skip)`,
    });
  }
  const status = project.state.phases[phaseKey(to.id)]?.status;
  if (status !== 'completed' && status !== 'skipped') {
    throw new SluiceError('TRANSITION_INVALID', {
      field: 'PHASE',
      message: `phase ${phaseKey(to.id)} is ${status ?? 'missing from state'}; only a completed or skipped phase can be re-entered`,
    });
  }
  return writeMove(kernel, project, 'reenter', from, to, o);
}
