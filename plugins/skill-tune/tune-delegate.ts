import { relative } from 'pathe';
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
  const request = {
    prompt: call.prompt,
    mode: call.mode,
    cwd: call.cwd,
    transcriptPath: inRun(run, call.transcript),
    label: call.label,
    // The run's state, snapshots and backups are read-only in the OS sandbox (its own working folder aside).
    readOnly: [run.workDir],
    ...(call.addDirs?.length ? { addDirs: call.addDirs } : {}),
    ...(state.delegate_extra ? { extra: state.delegate_extra } : {}),
  };
  let result: DelegateResult;
  try {
    result = await run.kernel.runDelegate(backend, request, { signal: run.signal });
  } catch (error) {
    // Cancelled while queued: the queue rejects instead of returning a result.
    if (run.signal.aborted) throw interrupted(run);
    throw error;
  }
  if (result.status === 'cancelled' || run.signal.aborted) throw interrupted(run);
  return result;
}

export const interrupted = (run: Pick<TuneRun, 'kernel' | 'workDir'>) =>
  new SluiceError('QUEUE_CANCELLED', {
    message: 'the tuning run was interrupted',
    hint: `continue it with: sluice tune --resume ${relative(run.kernel.projectRoot, run.workDir)}`,
  });

export const failureOf = (r: DelegateResult) => `${r.backend} ${r.status}${r.error ? `: ${r.error}` : r.exitCode !== null ? ` (exit ${r.exitCode})` : ''}`;
