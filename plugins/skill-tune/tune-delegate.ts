import { SluiceError, type DelegateMode, type DelegateResult } from '../../core/index.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { inRun, type TuneRun } from './tune-workspace.ts';

export type TuneRole = 'executor' | 'evaluator' | 'improver';

export interface RoleCall {
  prompt: string;
  mode: DelegateMode;
  cwd: string;
  addDirs?: string[];
  /** Transcript path relative to the run folder. */
  transcript: string;
  label: string;
}

/**
 * Runs one prompt on the backend chosen for a role. Backend failures come back as results (the
 * steps decide about retries); an interrupted run throws, leaving the state at the last finished step.
 */
export async function callRole(run: TuneRun, state: IterationState, role: TuneRole, call: RoleCall): Promise<DelegateResult> {
  const backend = state.backends[role];
  const result = await run.kernel.runDelegate(
    backend,
    {
      prompt: call.prompt,
      mode: call.mode,
      cwd: call.cwd,
      transcriptPath: inRun(run, call.transcript),
      label: call.label,
      ...(call.addDirs?.length ? { addDirs: call.addDirs } : {}),
      ...(state.delegate_extra ? { extra: state.delegate_extra } : {}),
    },
    { signal: run.signal },
  );
  if (result.status === 'cancelled' || run.signal.aborted) throw interrupted();
  return result;
}

export const interrupted = () => new SluiceError('QUEUE_CANCELLED', { message: 'the tuning run was interrupted', hint: 'continue it with sluice tune --resume RUN_DIR' });

export const failureOf = (r: DelegateResult) => `${r.backend} ${r.status}${r.error ? `: ${r.error}` : r.exitCode !== null ? ` (exit ${r.exitCode})` : ''}`;
