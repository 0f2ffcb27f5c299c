import { join } from 'pathe';
import { realPathInside, SluiceError, type Kernel, type StateFile } from '../../core/index.ts';
import { iterationStateInvariant, IterationStateSchema, type IterationState } from './iteration-state-schema.ts';
import { checkSkillFolder } from './read-skill.ts';
import { copyTree } from './skill-folders.ts';

/**
 * Layout of a run folder `<run_dir>/skill-tune-<timestamp>/`:
 *   iteration-state.json            the run's state (schema `iteration-state`)
 *   backup/<skill>/                 the skills as they were before the run
 *   iteration-N/skill-snapshot/<skill>/   the skills as iteration N ran them
 *   iteration-N/artifacts/          what the executor wrote (chain mode: artifacts/<skill>/)
 *   iteration-N/executor-skill/     the copy of the skills the executor was pointed at
 *   iteration-N/transcripts/        delegate transcripts
 *   iteration-N/outside-before/<role>/  what a call changed outside its folder, as it was
 *   iteration-N-eval.md, iteration-N-changes.md
 *   final-report.md, score-chart.svg
 */
export const STATE_FILE = 'iteration-state.json';

export const workspacePaths = {
  state: STATE_FILE,
  backup: (id: string) => `backup/${id}`,
  iteration: (n: number) => `iteration-${n}`,
  snapshot: (n: number, id: string) => `iteration-${n}/skill-snapshot/${id}`,
  /** A throwaway copy the executor reads (its write access must not reach the snapshot). */
  executorSkill: (n: number, id: string) => `iteration-${n}/executor-skill/${id}`,
  artifacts: (n: number, id?: string) => (id === undefined ? `iteration-${n}/artifacts` : `iteration-${n}/artifacts/${id}`),
  executorOutput: (n: number, id?: string) => `iteration-${n}/executor-output${id === undefined ? '' : `-${id}`}.md`,
  transcript: (n: number, name: string) => `iteration-${n}/transcripts/${name}.log`,
  evaluatorOutput: (n: number, attempt: number) => `iteration-${n}/evaluator-output-${attempt}.txt`,
  evalReport: (n: number) => `iteration-${n}-eval.md`,
  changes: (n: number) => `iteration-${n}-changes.md`,
  improveWork: (n: number) => `iteration-${n}/improve-work`,
  /** Copies of what a call changed outside its folder, as it was before (for --restore). */
  outsideCopies: (n: number, role: string) => `iteration-${n}/outside-before/${role}`,
  report: 'final-report.md',
  chart: 'score-chart.svg',
  lock: 'tune.lock',
};

/** What every step needs: the kernel, where the run lives, and how to report progress. */
export interface TuneRun {
  kernel: Kernel;
  /** Absolute run folder. */
  workDir: string;
  file: StateFile<typeof IterationStateSchema>;
  signal: AbortSignal;
  /** A progress line for people (the command prints it; the demo may ignore it). */
  say(line: string): void;
}

export const stateFileOf = (workDir: string): StateFile<typeof IterationStateSchema> => ({
  path: join(workDir, STATE_FILE),
  schema: IterationStateSchema,
  invariant: iterationStateInvariant,
});

export const inRun = (run: Pick<TuneRun, 'workDir'>, rel: string) => join(run.workDir, rel);

/** Applies one pure transition atomically and returns the new state. */
export async function updateState(run: TuneRun, fn: (s: IterationState, now: string) => IterationState): Promise<IterationState> {
  const now = run.kernel.host.now().toISOString();
  const { after } = await run.kernel.store.update(run.file, (s) => fn(s, now), { purpose: 'skill tune' });
  return after;
}

/** A skill's folder from the state's project-relative path; it must still lead inside the project (symlinks included) before anything is copied into it. */
export const skillDirOf = (kernel: Kernel, skill: { path: string }) => realPathInside(kernel.host, kernel.projectRoot, skill.path, 'skill path');

/** Copies each skill somewhere in the run, refusing one that is no longer valid (edited or moved by hand mid-run). */
export async function copySkills(run: TuneRun, state: IterationState, target: (id: string) => string): Promise<void> {
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
