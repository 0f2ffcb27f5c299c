import { relative } from 'pathe';
import { acquireLock, type LockHandle } from '../../core/index.ts';
import { chartPoints, renderFinalReport } from './final-report.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { renderScoreChart } from './score-chart.ts';
import { HALF_WRITTEN_LOCK_WAIT_MS, lockSkills, releaseAll } from './skill-locks.ts';
import { walkSteps } from './step-machine.ts';
import { announce, MID_ITERATION, positionOf, RESUME_AT, TUNE_STEPS, type TuneStepContext } from './tune-steps.ts';
import { interrupted } from './tune-delegate.ts';
import { inRun, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

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
 * The orchestrator: walks the steps of tune-steps.ts from where the state stands (RESUME_AT), each
 * step writing the state before the next one starts; a resumed run therefore continues at the first
 * unfinished step and never redoes a finished one. Termination is a pure function of the state, so
 * it decides the same after a resume. One process at a time drives a run (a lock in the run folder; a killed holder's
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
    const context: TuneStepContext = { run, state: await kernel.store.read(run.file) };
    // A run killed between its termination and its report still gets the report and the hook now.
    const alreadyFinished = context.state.termination !== null && (await kernel.host.stat(inRun(run, P.report))) !== null;
    const start = RESUME_AT[positionOf(context.state)];
    // A run picked up half-way through an iteration announces it; new iterations announce themselves.
    if (MID_ITERATION.has(start)) await announce(run, context.state, resumed);
    await walkSteps(TUNE_STEPS, start, context, () => {
      if (run.signal.aborted) throw interrupted(run);
    });
    const { state } = context;
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
