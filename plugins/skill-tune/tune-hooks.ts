import { defineHook, type HookSpecs } from '../../core/index.ts';
import type { Dimension } from './evaluation-scoring.ts';
import type { ScoreSource } from './parse-evaluation.ts';
import type { TerminationReason, ScoreTrend } from './termination.ts';

/** An iteration starts (also when a resumed run continues one). */
export interface TuneIterationEvent {
  runDir: string;
  iteration: number;
  maxIterations: number;
  skills: string[];
  mode: 'single' | 'chain';
  resumed: boolean;
}

/** The evaluator gave a usable score (failed evaluations emit nothing). */
export interface TuneScoredEvent {
  runDir: string;
  iteration: number;
  score: number;
  threshold: number;
  source: ScoreSource;
  dimensions: Record<Dimension, number> | null;
  skillScores: Record<string, number>;
  trend: ScoreTrend;
}

/** The loop stopped for good; the final report is written. */
export interface TuneTerminatedEvent {
  runDir: string;
  reason: TerminationReason;
  message: string;
  iterations: number;
  finalScore: number | null;
  bestScore: number | null;
  falling: boolean;
  reportPath: string;
}

/** Observers only: a failing notifier or dashboard never stops a tuning run. */
export const tuneHooks = {
  'tune:iteration': defineHook.parallel<[TuneIterationEvent]>({ observer: true, timeoutMs: 10_000, description: 'a skill tuning iteration starts' }),
  'tune:scored': defineHook.parallel<[TuneScoredEvent]>({ observer: true, timeoutMs: 10_000, description: 'a tuning iteration got its score' }),
  'tune:terminated': defineHook.parallel<[TuneTerminatedEvent]>({
    observer: true,
    timeoutMs: 10_000,
    description: 'a tuning run stopped; the final report is written',
  }),
};

declare module '../../core/hooks/hook-types.ts' {
  interface Hooks extends HookSpecs<typeof tuneHooks> {}
}
