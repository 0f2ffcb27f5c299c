import { join, relative } from 'pathe';
import { isInside, realPathInside, SluiceError, type Kernel, type LockHandle } from '../../core/index.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { resolveSkill, type ResolvedSkill } from './read-skill.ts';
import { lockSkills, releaseAll } from './skill-locks.ts';
import { adoptMaestroRun, isMaestroState, type Adoption } from './maestro-run.ts';
import { driveTune, type TuneResult } from './tune-loop.ts';
import type { TunePlan } from './tune-settings.ts';
import { stateFileOf, STATE_FILE, type TuneRun } from './tune-workspace.ts';

export const DEFAULT_RUN_DIR = '.sluice/runs';
export const MAX_CONSECUTIVE_ERRORS = 3;

export interface TuneRunOptions {
  /** Parent of the run folder, relative to the project (default `.sluice/runs`). */
  runDir?: string;
  /** Passed to every delegate run as `request.extra` (the demo names its script here). */
  delegateExtra?: Record<string, unknown>;
  signal?: AbortSignal;
  say?(line: string): void;
}

/** Phase 1: checks everything that can be checked before any file is written, then creates the run folder and state. */
export async function startTune(kernel: Kernel, plan: Omit<TunePlan, 'notes'>, o: TuneRunOptions = {}): Promise<TuneResult> {
  await checkBackends(kernel, Object.values(plan.backends));
  const skills: ResolvedSkill[] = [];
  for (const arg of plan.skillArgs) skills.push(await resolveSkill(kernel, arg));
  const seen = new Map<string, string>();
  for (const s of skills) {
    const other = seen.get(s.id);
    if (other !== undefined)
      throw new SluiceError('USAGE', {
        message: `two skills share the folder name ${JSON.stringify(s.id)} (${kernel.display(other)} and ${kernel.display(s.dir)}); rename one`,
      });
    seen.set(s.id, s.dir);
  }
  const parent = await realPathInside(kernel.host, kernel.projectRoot, o.runDir ?? DEFAULT_RUN_DIR, '--run-dir');
  for (const s of skills) {
    if (isInside(s.dir, parent) || isInside(parent, s.dir))
      throw new SluiceError('USAGE', {
        message: `the run folder ${kernel.display(parent)} and the skill ${kernel.display(s.dir)} overlap; a snapshot would copy itself`,
      });
    for (const other of skills)
      if (other !== s && isInside(s.dir, other.dir))
        throw new SluiceError('USAGE', { message: `skill ${kernel.display(other.dir)} is inside skill ${kernel.display(s.dir)}` });
  }
  // Locked before the run folder exists, so a refused second run leaves nothing behind.
  const skillLocks = await lockSkills(
    kernel,
    skills.map((s) => ({ path: relative(kernel.projectRoot, s.dir) })),
    parent,
  );
  try {
    return await createAndDrive(kernel, plan, skills, parent, o, skillLocks);
  } catch (error) {
    await releaseAll(skillLocks);
    throw error;
  }
}

async function createAndDrive(
  kernel: Kernel,
  plan: Omit<TunePlan, 'notes'>,
  skills: ResolvedSkill[],
  parent: string,
  o: TuneRunOptions,
  skillLocks: LockHandle[],
): Promise<TuneResult> {
  await kernel.host.mkdir(parent);
  const now = kernel.host.now();
  const stamp = now
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  const state: IterationState = {
    format: 'sluice-skill-tune/1',
    run_id: `skill-tune-${stamp}`,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
    status: 'setup',
    scenario: plan.scenario,
    execution_mode: plan.mode,
    chain_on_failure: plan.stopChainOnFailure ? 'stop' : 'continue',
    preset: plan.preset,
    max_iterations: plan.maxIterations,
    quality_threshold: plan.threshold,
    max_errors: MAX_CONSECUTIVE_ERRORS,
    backends: { ...plan.backends },
    self_evaluation_acknowledged: plan.selfEvaluationAcknowledged,
    ...(o.delegateExtra ? { delegate_extra: o.delegateExtra } : {}),
    skills: skills.map((s) => ({ id: s.id, name: s.name, path: relative(kernel.projectRoot, s.dir) })),
    chain_order: skills.map((s) => s.id),
    current_iteration: 0,
    latest_score: null,
    best: null,
    score_trend: [],
    error_count: 0,
    iterations: [],
    termination: null,
  };
  // The state file is the claim on the folder name: a second run in the same second gets a suffix.
  let workDir = '';
  for (let n = 1; ; n++) {
    const name = n === 1 ? state.run_id : `${state.run_id}-${n}`;
    workDir = join(parent, name);
    await kernel.host.mkdir(workDir);
    try {
      await kernel.store.create(stateFileOf(workDir), { ...state, run_id: name });
      break;
    } catch (error) {
      if (!(error instanceof SluiceError && error.code === 'STATE_EXISTS') || n > 50) throw error;
    }
  }
  return driveTune(runOf(kernel, workDir, o), false, skillLocks);
}

/**
 * `sluice tune --resume RUN_DIR`: continues from iteration-state.json with the run's saved settings.
 * A maestro skill-iter-tune folder is continued as a sluice run that carries its history (made once;
 * a later --resume of the same maestro folder picks that run up); only then are backends taken from
 * the flags (maestro's state names none).
 */
export async function resumeTune(
  kernel: Kernel,
  runDirArg: string,
  o: Omit<TuneRunOptions, 'runDir' | 'delegateExtra'> & { adoption?: Adoption } = {},
): Promise<TuneResult> {
  let workDir = await openRunDir(kernel, runDirArg);
  const raw: unknown = JSON.parse(await kernel.host.readText(join(workDir, STATE_FILE)).catch(() => 'null'));
  if (raw !== null && isMaestroState(raw)) {
    const parent = await realPathInside(kernel.host, kernel.projectRoot, DEFAULT_RUN_DIR, 'run folder');
    await kernel.host.mkdir(parent);
    const maestroDir = workDir;
    workDir = (await adoptionOf(kernel, parent, maestroDir)) ?? (await adoptMaestroRun(kernel, maestroDir, raw, parent, o.adoption ?? {}));
    o.say?.(`continuing the maestro run ${kernel.display(maestroDir)} as ${kernel.display(workDir)}`);
  } else if (o.adoption && Object.keys(o.adoption).length) {
    throw new SluiceError('USAGE', { message: '--resume continues with the run\u2019s saved settings; backend flags go only with a maestro run folder' });
  }
  const state = await kernel.store.read(stateFileOf(workDir));
  if (state.termination === null) await checkBackends(kernel, Object.values(state.backends));
  return driveTune(runOf(kernel, workDir, o), true);
}

/** The sluice run made earlier from this maestro folder, if any. */
async function adoptionOf(kernel: Kernel, parent: string, maestroDir: string): Promise<string | undefined> {
  const from = relative(kernel.projectRoot, maestroDir);
  for (const e of await kernel.host.listDir(parent)) {
    if (e.kind !== 'dir') continue;
    const text = await kernel.host.readText(join(parent, e.name, STATE_FILE)).catch(() => undefined);
    if (text?.includes('"adopted_from"') && (JSON.parse(text) as { adopted_from?: string }).adopted_from === from) return join(parent, e.name);
  }
  return undefined;
}

/** A folder made by `sluice tune`: inside the project, holding an iteration-state.json. */
export async function openRunDir(kernel: Kernel, runDirArg: string): Promise<string> {
  const workDir = await realPathInside(kernel.host, kernel.projectRoot, runDirArg, 'run folder');
  if ((await kernel.host.stat(join(workDir, STATE_FILE)))?.kind !== 'file') {
    throw new SluiceError('TUNE_RUN_INVALID', { file: kernel.display(workDir), message: `no ${STATE_FILE} in ${kernel.display(workDir)}` });
  }
  return workDir;
}

function runOf(kernel: Kernel, workDir: string, o: TuneRunOptions): TuneRun {
  return { kernel, workDir, file: stateFileOf(workDir), signal: o.signal ?? new AbortController().signal, say: o.say ?? (() => {}) };
}

/** Unknown or unavailable backends fail before anything is written (never a silent fallback). */
async function checkBackends(kernel: Kernel, names: string[]): Promise<void> {
  for (const name of [...new Set(names)]) {
    const def = kernel.delegates.require(name);
    const a = await def.available({ host: kernel.host, kernel, settings: kernel.config.delegates?.[name] ?? {} });
    if (!a.ok)
      throw new SluiceError('DELEGATE_UNAVAILABLE', {
        field: `delegates.${name}`,
        message: `delegate ${name} is not available: ${a.reason ?? 'unknown reason'}`,
      });
  }
}
