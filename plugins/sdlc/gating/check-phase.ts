import { journaledStateUpdate } from '../state/journaled-state-update.ts';
import type { Kernel } from '../../../core/index.ts';
import { openProject, type SdlcProject } from '../project/open-project.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import { recordGateResults } from '../transition/transitions.ts';
import { runPhaseGates, type PhaseGateRun } from './run-phase-gates.ts';

export interface PhaseCheck {
  project: SdlcProject;
  phase: PhaseDefinition;
  current: boolean;
  run: PhaseGateRun;
}

/**
 * `sluice gate [--phase ID]`: runs the phase's gates (the current phase by default) and stores the
 * results in `phases.<id>.gate_results`, replacing the previous run's, as the seed's check_gates does.
 */
export async function checkPhase(kernel: Kernel, o: { phase?: string; signal?: AbortSignal } = {}): Promise<PhaseCheck> {
  const project = await openProject(kernel, { verifyFrozen: true });
  const phase = o.phase === undefined ? project.model.require(project.state.current_phase) : project.model.require(o.phase, { field: '--phase' });
  const run = await runPhaseGates(kernel, project, phase, o.signal);
  // The same results as stored (a re-run with nothing changed): nothing to write, so no lock, no
  // YAML rewrite and no fsync. The reference's check_gates writes nothing at all.
  const key = phaseKey(phase.id);
  const unchanged = JSON.stringify(recordGateResults(project.state, phase, run.results).phases[key]) === JSON.stringify(project.state.phases[key]);
  if (!unchanged)
    await journaledStateUpdate(kernel, project.paths, (state) => recordGateResults(state, phase, run.results), {
      purpose: 'sluice gate',
      read: { text: project.stateText, state: project.state },
    });
  return { project, phase, current: phase === project.model.require(project.state.current_phase), run };
}
