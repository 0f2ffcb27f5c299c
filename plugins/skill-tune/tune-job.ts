import { isAbsolute, resolve } from 'pathe';
import { kernelRootedAt, SluiceError, type JobContext, type Kernel } from '../../core/index.ts';
import type { IterationState } from './iteration-state-schema.ts';
import type { TuneResult } from './tune-loop.ts';
import type { TunePlan } from './tune-settings.ts';

/** The name orchestrator and workers share: one job tunes one skill, or one chain. */
export const TUNE_JOB = 'tune:skill';

export type TuneJobPlan = Omit<TunePlan, 'notes'>;

export interface TuneJobPayload {
  /** The absolute project folder; a worker must see it at the same path (the machine itself or a shared folder). */
  projectRoot: string;
  plan: TuneJobPlan;
  /** Parent of the run folder, relative to the project. */
  runDir?: string;
  delegateExtra?: Record<string, string>;
}

export interface TuneJobResult {
  runDir: string;
  reportPath: string;
  chartPath: string;
  alreadyFinished: boolean;
  state: IterationState;
  /** Where the job ran (`host:pid`), so a report can say which worker tuned what. */
  ranOn: string;
}

declare module '../../core/queue/job-queue.ts' {
  interface Jobs {
    'tune:skill': { payload: TuneJobPayload; result: TuneJobResult };
  }
}

/**
 * The jobs one `sluice tune` makes. Locally the plan is one job, as it always was (single mode tunes the
 * skills together). Spread over workers, skills in single mode are independent, so each becomes its own
 * job and its own run folder, tuned in parallel; a chain stays one job because each skill needs the
 * previous one's output.
 */
export function tuneJobs(
  projectRoot: string,
  plan: TuneJobPlan,
  o: { spread: boolean; runDir?: string; delegateExtra?: Record<string, string> },
): TuneJobPayload[] {
  const base = { projectRoot, ...(o.runDir === undefined ? {} : { runDir: o.runDir }), ...(o.delegateExtra ? { delegateExtra: o.delegateExtra } : {}) };
  if (!o.spread || plan.mode === 'chain' || plan.skillArgs.length < 2) return [{ ...base, plan }];
  return plan.skillArgs.map((skill) => ({ ...base, plan: { ...plan, skillArgs: [skill] } }));
}

export interface TuneJobOptions extends Pick<JobContext, 'signal'> {
  say?(line: string): void;
}

/**
 * The `tune:skill` handler: the same code in the `sluice tune` process and in `sluice worker`. A worker
 * serves many projects, so the run happens in a view of its kernel rooted at the job's project.
 */
export async function runTuneJob(kernel: Kernel, payload: TuneJobPayload, o: TuneJobOptions): Promise<TuneJobResult> {
  const root = payload.projectRoot;
  if (!isAbsolute(root) || (await kernel.host.stat(root))?.kind !== 'dir')
    throw new SluiceError('TUNE_PROJECT_MISSING', {
      file: root,
      message: `the project folder ${root} is not on this machine (${kernel.host.hostname()}); a tune job needs the project at the same path (run the worker there, or share the folder)`,
    });
  const project = kernelRootedAt(kernel, root);
  // The script backend reads its file relative to the process's project: pin it to the job's project.
  const extra = payload.delegateExtra;
  const delegateExtra =
    extra?.script !== undefined && project !== kernel && !isAbsolute(extra.script) ? { ...extra, script: resolve(root, extra.script) } : extra;
  const { startTune } = await import('./tune-setup.ts');
  const r: TuneResult = await startTune(project, payload.plan, { runDir: payload.runDir, delegateExtra, signal: o.signal, say: o.say });
  return { runDir: r.runDir, reportPath: r.reportPath, chartPath: r.chartPath, alreadyFinished: r.alreadyFinished, state: r.state, ranOn: ranOn(kernel) };
}

const ranOn = (kernel: Kernel) => `${kernel.host.hostname()}:${kernel.host.pid}`;
