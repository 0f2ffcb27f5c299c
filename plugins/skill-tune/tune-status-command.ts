import { join } from 'pathe';
import * as v from 'valibot';
import { commandOutput, compareText, defineCommand, isSluiceError, readDataFile, realPathInside, type Kernel } from '../../core/index.ts';
import { IterationStateSchema, TERMINATION_REASONS, type IterationState } from './iteration-state-schema.ts';
import { DEFAULT_RUN_DIR } from './tune-setup.ts';
import { STATE_FILE, workspacePaths } from './tune-workspace.ts';

const Score = v.nullable(v.number());

/** One run as `tune status` shows it: what the state file says, never recomputed. */
const RunRow = v.object({
  run: v.pipe(v.string(), v.description('the run folder, relative to the project: what --resume and --restore take')),
  status: v.picklist(['setup', 'running', 'terminated', 'unreadable']),
  skills: v.array(v.string()),
  scenario: v.optional(v.string()),
  mode: v.optional(v.picklist(['single', 'chain'])),
  iteration: v.optional(v.number()),
  maxIterations: v.optional(v.number()),
  threshold: v.optional(v.number()),
  latestScore: v.optional(Score),
  best: v.optional(v.nullable(v.object({ iteration: v.number(), score: v.number() }))),
  termination: v.optional(v.nullable(v.object({ reason: v.picklist(TERMINATION_REASONS), message: v.string() }))),
  updatedAt: v.optional(v.string()),
  report: v.optional(v.pipe(v.string(), v.description('final-report.md, once the run has one'))),
  error: v.optional(v.pipe(v.string(), v.description('why iteration-state.json could not be read'))),
});

export const TuneStatusOutput = commandOutput({ runDir: v.string(), runs: v.array(RunRow) });
type Row = v.InferOutput<typeof RunRow>;

function rowOf(run: string, s: IterationState, report: boolean): Row {
  return {
    run,
    status: s.status,
    skills: s.skills.map((k) => k.id),
    scenario: s.scenario,
    mode: s.execution_mode,
    iteration: s.current_iteration,
    maxIterations: s.max_iterations,
    threshold: s.quality_threshold,
    latestScore: s.latest_score,
    best: s.best,
    termination: s.termination ? { reason: s.termination.reason, message: s.termination.message } : null,
    updatedAt: s.updated_at,
    ...(report ? { report: `${run}/${workspacePaths.report}` } : {}),
  };
}

/** Reads one run folder's state; a folder whose state cannot be read is listed with the reason. */
async function readRun(kernel: Kernel, dir: string): Promise<Row> {
  const run = kernel.display(dir);
  try {
    const state = await readDataFile(kernel.host, join(dir, STATE_FILE), IterationStateSchema, { display: `${run}/${STATE_FILE}` });
    return rowOf(run, state, (await kernel.host.stat(join(dir, workspacePaths.report)))?.kind === 'file');
  } catch (error) {
    if (!isSluiceError(error)) throw error;
    return { run, status: 'unreadable', skills: [], error: error.message };
  }
}

/** `sluice tune status [run]`: the tuning runs of the project (or one), read from their state files; runs nothing. */
export const tuneStatusCommand = defineCommand({
  name: 'tune status',
  summary: 'show the tuning runs under the run folder (or one run): status, iteration, scores, why it stopped (runs nothing)',
  args: ['[run_dir]'],
  options: [{ flags: '--run-dir <dir>', description: `where run folders are (default ${DEFAULT_RUN_DIR})` }],
  examples: ['sluice tune status', 'sluice tune status .sluice/runs/skill-tune-20250101-120000 --json'],
  output: TuneStatusOutput,
  async run({ args, options }, { kernel, io }) {
    const named = args[0] as string | undefined;
    const parent = await realPathInside(kernel.host, kernel.projectRoot, (options.runDir as string | undefined) ?? DEFAULT_RUN_DIR, '--run-dir');
    let runs: Row[];
    if (named !== undefined) runs = [await readRun(kernel, await realPathInside(kernel.host, kernel.projectRoot, named, 'run folder'))];
    else {
      const entries = (await kernel.host.stat(parent))?.kind === 'dir' ? await kernel.host.listDir(parent) : [];
      const dirs = entries.filter((e) => e.kind === 'dir' && e.name.startsWith('skill-tune-')).sort((a, b) => compareText(a.name, b.name));
      runs = await Promise.all(dirs.map((e) => readRun(kernel, join(parent, e.name))));
    }
    const s = io.style;
    const score = (n: number | null | undefined) => (n === null || n === undefined ? '—' : String(n));
    const lines = runs.map((r) =>
      r.status === 'unreadable'
        ? `${s.bold(r.run)}  ${s.red('unreadable')}: ${r.error}`
        : `${s.bold(r.run)}  ${r.status}  ${r.skills.join(', ')}  iteration ${r.iteration}/${r.maxIterations}  score ${score(r.latestScore)} (best ${score(r.best?.score)}, threshold ${r.threshold})${r.termination ? `  stopped: ${r.termination.reason}` : ''}`,
    );
    const human = runs.length === 0 ? `no tuning runs under ${kernel.display(parent)}` : lines.join('\n');
    return { exitCode: 0, data: { runDir: kernel.display(parent), runs }, human };
  },
});
