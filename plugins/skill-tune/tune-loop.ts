import { join, relative } from 'pathe';
import { acquireLock, SluiceError, type LockHandle } from '../../core/index.ts';
import { evaluateIteration } from './evaluate-step.ts';
import { executeIteration } from './execute-step.ts';
import { chartPoints, renderFinalReport } from './final-report.ts';
import { improveIteration } from './improve-step.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { checkSkillFolder } from './read-skill.ts';
import { renderScoreChart } from './score-chart.ts';
import { HALF_WRITTEN_LOCK_WAIT_MS, lockSkills, releaseAll } from './skill-locks.ts';
import { copyTree } from './skill-folders.ts';
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
import { interrupted } from './tune-delegate.ts';
import { inRun, skillDirOf, updateState, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

export interface TuneResult {
  /** Absolute run folder. */
  runDir: string;
  reportPath: string;
  chartPath: string;
  state: IterationState;
  /** The run had already terminated before this call (resume of a finished run). */
  alreadyFinished: boolean;
}

/**
 * The orchestrator. Each pass reads what the state says is next and does exactly that step, writing
 * the state before moving on; a resumed run therefore continues at the first unfinished step and
 * never redoes a finished one. Termination is a pure function of the state, so it decides the same
 * after a resume. One process at a time drives a run (a lock in the run folder; a killed holder's
 * lock is taken over).
 */
export async function driveTune(run: TuneRun, resumed: boolean, heldSkillLocks?: LockHandle[]): Promise<TuneResult> {
  const { kernel } = run;
  let skillLocks = heldSkillLocks ?? [];
  let lock: LockHandle | undefined;
  try {
    lock = await acquireLock(kernel.host, inRun(run, P.lock), {
      waitMs: HALF_WRITTEN_LOCK_WAIT_MS,
      purpose: 'sluice tune',
      display: kernel.display(inRun(run, P.lock)),
    });
    if (!heldSkillLocks) skillLocks = await lockSkills(kernel, (await kernel.store.read(run.file)).skills, run.workDir);
    let state = await kernel.store.read(run.file);
    // A run killed between its termination and its report still gets the report and the hook now.
    const alreadyFinished = state.termination !== null && (await kernel.host.stat(inRun(run, P.report))) !== null;
    // A resumed run announces the iteration it picks up half-way; new iterations announce themselves.
    let announced = 0;
    for (;;) {
      if (run.signal.aborted) throw interrupted(run);
      if (state.termination) break;
      if (state.status === 'setup') {
        state = await backupSkills(run, state);
        continue;
      }
      const it = state.iterations.at(-1);
      if (it && (it.phase === 'evaluated' || it.phase === 'failed')) {
        const decision = terminationOf(state);
        if (decision.terminate) {
          state = await updateState(run, (s, now) => recordTermination(s, decision, now));
          run.say(`stopped: ${decision.message}`);
          continue;
        }
        if (decision.trend === 'falling' && it.phase === 'evaluated') run.say(`iteration ${it.round}: ${decision.message}`);
        if (it.phase === 'evaluated') {
          const improvement = await improveIteration(run, state, it.round);
          if (improvement.status === 'rolled_back') run.say(`iteration ${it.round}: improvement rolled back: ${improvement.reason}`);
          state = await updateState(run, (s, now) => recordImprovement(s, it.round, improvement, now));
          continue;
        }
      }
      if (!it || it.phase === 'done' || it.phase === 'failed') {
        state = await updateState(run, beginIteration);
        announced = state.current_iteration;
        await announce(run, state, false);
        continue;
      }
      if (announced !== it.round) {
        announced = it.round;
        await announce(run, state, resumed);
      }
      if (it.phase === 'started') {
        await snapshotSkills(run, state, it.round);
        state = await updateState(run, (s, now) => markSnapshotted(s, it.round, now));
      } else if (it.phase === 'snapshotted') {
        const execution = await executeIteration(run, state, it.round);
        state = await updateState(run, (s, now) => recordExecution(s, it.round, execution, now));
        if (execution.status !== 'ok') run.say(`iteration ${it.round}: ${execution.error}`);
      } else if (it.phase === 'executed') {
        const evaluation = await evaluateIteration(run, state, it.round);
        state = await updateState(run, (s, now) => recordEvaluation(s, it.round, evaluation, now));
        await announceScore(run, state, it.round);
      }
    }
    const { reportPath, chartPath } = await writeReport(run, state);
    if (!alreadyFinished) {
      const t = state.termination!;
      await kernel.hooks.call('tune:terminated', {
        runDir: run.workDir,
        reason: t.reason,
        message: t.message,
        iterations: state.current_iteration,
        finalScore: state.latest_score,
        bestScore: state.best?.score ?? null,
        falling: t.falling,
        reportPath,
      });
    }
    return { runDir: run.workDir, reportPath, chartPath, state, alreadyFinished };
  } finally {
    await releaseAll(skillLocks);
    await lock?.release();
  }
}

/** Copies each skill somewhere in the run, refusing one that is no longer valid (edited or moved by hand mid-run). */
async function copySkills(run: TuneRun, state: IterationState, target: (id: string) => string): Promise<void> {
  const { kernel } = run;
  for (const s of state.skills) {
    const dir = await skillDirOf(kernel, s);
    const check = await checkSkillFolder(kernel.host, dir);
    if (!check.ok)
      throw new SluiceError('SKILL_INVALID', {
        file: kernel.display(join(dir, 'SKILL.md')),
        field: check.field,
        message: `${check.message} (the skill changed outside the run)`,
      });
    await copyTree(kernel.host, dir, inRun(run, target(s.id)), { display: kernel.display });
  }
}

async function backupSkills(run: TuneRun, state: IterationState): Promise<IterationState> {
  await copySkills(run, state, P.backup);
  return updateState(run, markSetupComplete);
}

/** The skills as this iteration runs them. */
const snapshotSkills = (run: TuneRun, state: IterationState, round: number) => copySkills(run, state, (id) => P.snapshot(round, id));

async function announce(run: TuneRun, state: IterationState, resumed: boolean): Promise<void> {
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

export async function writeReport(run: TuneRun, state: IterationState): Promise<{ reportPath: string; chartPath: string }> {
  const { kernel } = run;
  const chartPath = inRun(run, P.chart);
  const reportPath = inRun(run, P.report);
  await kernel.host.writeAtomic(
    chartPath,
    renderScoreChart(chartPoints(state), state.quality_threshold, `Score by iteration: ${state.chain_order.join(', ')}`),
  );
  await kernel.host.writeAtomic(reportPath, renderFinalReport(state, { projectRoot: kernel.projectRoot, runDir: relative(kernel.projectRoot, run.workDir) }));
  return { reportPath, chartPath };
}
