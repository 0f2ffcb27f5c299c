import type { EvaluationRecord, ExecutionRecord, ImprovementRecord, IterationRecord, IterationState } from './iteration-state-schema.ts';
import { decideTermination, scoreTrend, type TerminationDecision } from './termination.ts';

/**
 * Pure updates of `iteration-state.json`, one per step of the loop. The loop applies them through
 * `kernel.store.update`, so each step is written atomically before the next one starts.
 */
const touch = (s: IterationState, now: string): IterationState => ({ ...s, updated_at: now });

function patchIteration(s: IterationState, round: number, now: string, patch: (it: IterationRecord) => IterationRecord): IterationState {
  const index = s.iterations.findIndex((it) => it.round === round);
  if (index === -1) throw new Error(`iteration ${round} is not in the state`);
  const iterations = s.iterations.slice();
  iterations[index] = patch(iterations[index]);
  return { ...touch(s, now), iterations };
}

export const markSetupComplete = (s: IterationState, now: string): IterationState => ({ ...touch(s, now), status: 'running' });

export function beginIteration(s: IterationState, now: string): IterationState {
  const round = s.current_iteration + 1;
  const it: IterationRecord = { round, phase: 'started', started_at: now, trend: null, execution: null, evaluation: null, improvement: null };
  return { ...touch(s, now), current_iteration: round, iterations: [...s.iterations, it] };
}

export const markSnapshotted = (s: IterationState, round: number, now: string): IterationState =>
  patchIteration(s, round, now, (it) => ({ ...it, phase: 'snapshotted' }));

/** Progress inside the execute step (chain mode records each skill as it finishes). */
export const recordExecutionProgress = (s: IterationState, round: number, execution: ExecutionRecord, now: string): IterationState =>
  patchIteration(s, round, now, (it) => ({ ...it, execution }));

export function recordExecution(s: IterationState, round: number, execution: ExecutionRecord, now: string): IterationState {
  if (execution.status === 'ok') return patchIteration(s, round, now, (it) => ({ ...it, phase: 'executed', execution }));
  return failIteration(recordExecutionProgress(s, round, execution, now), round, `execution failed: ${execution.error ?? 'unknown error'}`, now);
}

export function recordEvaluation(s: IterationState, round: number, evaluation: EvaluationRecord, now: string): IterationState {
  if (evaluation.status !== 'ok' || evaluation.score === null) {
    const withEval = patchIteration(s, round, now, (it) => ({ ...it, evaluation }));
    return failIteration(withEval, round, `evaluation failed: ${evaluation.error ?? 'no score'}`, now);
  }
  const score = evaluation.score;
  const score_trend = [...s.score_trend, score];
  const trend = scoreTrend(score_trend);
  const best = s.best === null || score > s.best.score ? { iteration: round, score } : s.best;
  const next = patchIteration(s, round, now, (it) => ({ ...it, phase: 'evaluated', evaluation, trend }));
  return { ...next, latest_score: score, score_trend, best, error_count: 0 };
}

function failIteration(s: IterationState, round: number, note: string, now: string): IterationState {
  const next = patchIteration(s, round, now, (it) => ({ ...it, phase: 'failed', note, finished_at: now }));
  return { ...next, error_count: s.error_count + 1 };
}

export const recordImprovement = (s: IterationState, round: number, improvement: ImprovementRecord, now: string): IterationState =>
  patchIteration(s, round, now, (it) => ({ ...it, phase: 'done', improvement, finished_at: now }));

/** The termination check on the current state (deterministic, so a resumed run decides the same). */
export function terminationOf(s: IterationState): TerminationDecision {
  return decideTermination({
    latestScore: s.latest_score,
    threshold: s.quality_threshold,
    currentIteration: s.current_iteration,
    maxIterations: s.max_iterations,
    scores: s.score_trend,
    consecutiveErrors: s.error_count,
    maxErrors: s.max_errors,
  });
}

export function recordTermination(s: IterationState, decision: TerminationDecision, now: string): IterationState {
  if (!decision.terminate || !decision.reason) return s;
  const last = s.iterations[s.iterations.length - 1];
  const closed = last && last.phase === 'evaluated' ? patchIteration(s, last.round, now, (it) => ({ ...it, phase: 'done', finished_at: now })) : touch(s, now);
  return {
    ...closed,
    status: 'terminated',
    termination: { reason: decision.reason, iteration: s.current_iteration, message: decision.message, falling: decision.trend === 'falling', at: now },
  };
}
