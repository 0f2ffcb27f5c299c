import { evaluateIteration } from './evaluate-step.ts';
import { executeIteration } from './execute-step.ts';
import { improveIteration } from './improve-step.ts';
import type { IterationState } from './iteration-state-schema.ts';
import {
  beginIteration,
  markSetupComplete,
  markSnapshotted,
  recordEvaluation,
  recordExecution,
  recordImprovement,
  recordTermination,
  terminationOf,
} from './state-transitions.ts';
import { END, step, type End, type StepTable } from './step-machine.ts';
import { copySkills, updateState, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

/** What the steps share: the run, and its state as last written. */
export interface TuneStepContext {
  run: TuneRun;
  state: IterationState;
}

export type TuneStepName = 'backup' | 'begin' | 'snapshot' | 'execute' | 'evaluate' | 'decide' | 'improve';

/** The round of the iteration under way. */
const round = (c: TuneStepContext) => c.state.iterations.at(-1)!.round;

/**
 * The tune loop as data. Every step but `decide` writes the state before it ends, so a run killed
 * anywhere resumes at the step RESUME_AT names for what was written; `decide` writes only a
 * termination and is a pure function of the state, so deciding again after a resume decides the same.
 */
export const TUNE_STEPS: StepTable<TuneStepContext, TuneStepName> = {
  backup: step({
    does: 'copy every skill to backup/ (refusing one that is no longer valid), then mark the setup complete',
    run: async (c) => {
      await copySkills(c.run, c.state, P.backup);
      c.state = await updateState(c.run, markSetupComplete);
      return 'ok';
    },
    next: { ok: 'begin' },
  }),
  begin: step({
    does: 'start the next iteration and announce it (tune:iteration)',
    run: async (c) => {
      c.state = await updateState(c.run, beginIteration);
      await announce(c.run, c.state, false);
      return 'ok';
    },
    next: { ok: 'snapshot' },
  }),
  snapshot: step({
    does: 'copy the skills as this iteration runs them to iteration-N/skill-snapshot/',
    run: async (c) => {
      const r = round(c);
      await copySkills(c.run, c.state, (id) => P.snapshot(r, id));
      c.state = await updateState(c.run, (s, now) => markSnapshotted(s, r, now));
      return 'ok';
    },
    next: { ok: 'execute' },
  }),
  execute: step({
    does: 'run the scenario with the skills (the executor); a failure fails the iteration',
    run: async (c) => {
      const r = round(c);
      const execution = await executeIteration(c.run, c.state, r);
      c.state = await updateState(c.run, (s, now) => recordExecution(s, r, execution, now));
      if (execution.status !== 'ok') c.run.say(`iteration ${r}: ${execution.error}`);
      return execution.status === 'ok' ? 'ok' : 'failed';
    },
    next: { ok: 'evaluate', failed: 'decide' },
  }),
  evaluate: step({
    does: 'score what the executor did (the evaluator) and announce the score (tune:scored); no score fails the iteration',
    run: async (c) => {
      const r = round(c);
      const evaluation = await evaluateIteration(c.run, c.state, r);
      c.state = await updateState(c.run, (s, now) => recordEvaluation(s, r, evaluation, now));
      await announceScore(c.run, c.state, r);
      return c.state.iterations.at(-1)!.phase === 'evaluated' ? 'scored' : 'failed';
    },
    next: { scored: 'decide', failed: 'decide' },
  }),
  decide: step({
    does: 'check termination (threshold, max iterations, convergence, error limit); stop, improve a scored iteration, or start the next',
    run: async (c) => {
      const it = c.state.iterations.at(-1)!;
      const decision = terminationOf(c.state);
      if (decision.terminate) {
        c.state = await updateState(c.run, (s, now) => recordTermination(s, decision, now));
        c.run.say(`stopped: ${decision.message}`);
        return 'stop';
      }
      if (it.phase === 'failed') return 'retry';
      if (decision.trend === 'falling') c.run.say(`iteration ${it.round}: ${decision.message}`);
      return 'improve';
    },
    next: { stop: END, improve: 'improve', retry: 'begin' },
  }),
  improve: step({
    does: 'let the improver edit a copy of the snapshot; sync it into the skills, or roll back',
    run: async (c) => {
      const r = round(c);
      const improvement = await improveIteration(c.run, c.state, r);
      if (improvement.status === 'rolled_back') c.run.say(`iteration ${r}: improvement rolled back: ${improvement.reason}`);
      c.state = await updateState(c.run, (s, now) => recordImprovement(s, r, improvement, now));
      return improvement.status;
    },
    next: { applied: 'begin', unchanged: 'begin', skipped: 'begin', rolled_back: 'begin' },
  }),
};

/** Where a written state stands: terminated, still in setup, before any iteration, or the last iteration's phase. */
export type TunePosition = 'terminated' | 'setup' | 'none' | IterationState['iterations'][number]['phase'];

/** The step a run resumes at, by where its state stands. */
export const RESUME_AT: Readonly<Record<TunePosition, TuneStepName | End>> = {
  terminated: END,
  setup: 'backup',
  none: 'begin',
  started: 'snapshot',
  snapshotted: 'execute',
  executed: 'evaluate',
  evaluated: 'decide',
  failed: 'decide',
  done: 'begin',
};

/** Steps inside an iteration: a run resumed at one of them announces the iteration it picks up. */
export const MID_ITERATION: ReadonlySet<TuneStepName | End> = new Set(['snapshot', 'execute', 'evaluate']);

export function positionOf(state: IterationState): TunePosition {
  if (state.termination) return 'terminated';
  if (state.status === 'setup') return 'setup';
  return state.iterations.at(-1)?.phase ?? 'none';
}

export async function announce(run: TuneRun, state: IterationState, resumed: boolean): Promise<void> {
  const round = state.current_iteration;
  run.say(`iteration ${round}/${state.max_iterations}${resumed ? ' (resumed)' : ''}`);
  await run.kernel.hooks.call('tune:iteration', {
    runDir: run.workDir,
    iteration: round,
    maxIterations: state.max_iterations,
    skills: state.chain_order.slice(),
    mode: state.execution_mode,
    resumed,
  });
}

async function announceScore(run: TuneRun, state: IterationState, round: number): Promise<void> {
  const it = state.iterations.find((x) => x.round === round)!;
  const e = it.evaluation!;
  if (e.score === null) {
    run.say(`iteration ${round}: no score (${e.error ?? 'evaluation failed'})`);
    return;
  }
  const per = Object.entries(e.skill_scores)
    .map(([id, v]) => `${id} ${v}`)
    .join(', ');
  run.say(`iteration ${round}: score ${e.score} (threshold ${state.quality_threshold})${per ? `; ${per}` : ''}${e.source !== 'json' ? ` [${e.source}]` : ''}`);
  await run.kernel.hooks.call('tune:scored', {
    runDir: run.workDir,
    iteration: round,
    score: e.score,
    threshold: state.quality_threshold,
    source: e.source ?? 'json',
    dimensions: e.dimensions,
    skillScores: { ...e.skill_scores },
    trend: it.trend ?? 'first',
  });
}
