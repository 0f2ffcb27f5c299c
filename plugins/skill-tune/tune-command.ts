import { relative } from 'pathe';
import { defineCommand, SluiceError, type CommandContext, type CommandOutcome } from '../../core/index.ts';
import { failedIterations } from './final-report.ts';
import type { TuneJobPayload, TuneJobResult } from './tune-job.ts';
import type { TuneResult } from './tune-loop.ts';
import type { TuneFlags } from './tune-settings.ts';
import { TuneOutput } from './tune-output.ts';

const PLAN_FLAGS = [
  'scenario',
  'preset',
  'maxIterations',
  'threshold',
  'chain',
  'strictChain',
  'executor',
  'evaluator',
  'improver',
  'allowSelfEvaluation',
  'runDir',
] as const;
const FLAG_NAMES: Record<string, string> = {
  maxIterations: '--max-iterations',
  allowSelfEvaluation: '--allow-self-evaluation',
  runDir: '--run-dir',
  strictChain: '--strict-chain',
};

export const tuneCommand = defineCommand({
  name: 'tune',
  summary: 'tune skills in an execute → evaluate → improve loop until a score threshold, a limit or convergence',
  args: ['[skills]'],
  options: [
    { flags: '--scenario <text>', description: 'the task the skill is tested on (required for a new run)' },
    {
      flags: '--preset <name>',
      description: 'quick (3 iterations, threshold 70), standard (5, 80), thorough (8, 90)',
      choices: ['quick', 'standard', 'thorough'],
    },
    { flags: '--max-iterations <n>', description: 'override the preset\u2019s iteration limit (1-100)' },
    { flags: '--threshold <n>', description: 'override the preset\u2019s score threshold (1-100)' },
    { flags: '--chain', description: 'run the skills in order, each getting the previous one\u2019s output; improve the weakest' },
    {
      flags: '--strict-chain',
      description: 'chain mode: a failed skill ends the iteration, instead of the chain going on without it (as maestro\u2019s does)',
    },
    { flags: '-y, --yes', description: 'ask nothing: standard preset and single mode unless flags say otherwise' },
    { flags: '--executor <backend>', description: 'delegate that runs the skill (default claude)' },
    { flags: '--evaluator <backend>', description: 'delegate that grades the output (default agy)' },
    { flags: '--improver <backend>', description: 'delegate that edits the skill (default claude)' },
    { flags: '--allow-self-evaluation', description: 'accept an evaluator on the executor\u2019s backend (refused otherwise)' },
    { flags: '--run-dir <dir>', description: 'where run folders go (default .sluice/runs)' },
    { flags: '--fail-below <score>', description: 'exit 1 when the final score is below this (0-100) or there is none: for CI' },
    { flags: '--resume <run_dir>', description: 'continue a stopped or killed run from its iteration-state.json' },
    { flags: '--restore <run_dir>', description: 'put the skills back as they were before that run' },
    { flags: '--iteration <n>', description: 'with --restore: restore the version iteration N ran instead of the original' },
  ],
  examples: [
    'sluice tune .claude/skills/commit-message --scenario "Write a commit message for the staged diff" -y',
    'sluice tune plan,build,review --chain --preset quick --scenario "Add a --verbose flag"',
    'sluice tune --resume .sluice/runs/skill-tune-20250101-120000',
    'sluice tune commit-message --scenario "Describe the staged diff" -y --fail-below 75',
    'sluice tune --restore .sluice/runs/skill-tune-20250101-120000',
  ],
  output: TuneOutput,
  async run(input, ctx) {
    const o = input.options as TuneFlags & { runDir?: string; resume?: string; restore?: string; iteration?: string; failBelow?: string };
    const failBelow = o.failBelow === undefined ? undefined : scoreFlag(o.failBelow);
    if (failBelow !== undefined && o.restore !== undefined) throw usage('--fail-below goes with a tune run, not --restore');
    const skillArg = input.args[0] as string | undefined;
    if (o.resume !== undefined && o.restore !== undefined) throw usage('--resume and --restore cannot be combined');
    if (o.iteration !== undefined && o.restore === undefined) throw usage('--iteration goes with --restore');
    const existingRun = o.resume ?? o.restore;
    // A maestro run folder names no backends: --resume takes them from these flags (refused for a sluice run).
    const adoptionFlags = o.resume !== undefined ? (['executor', 'evaluator', 'improver', 'allowSelfEvaluation'] as const) : [];
    if (existingRun !== undefined) {
      const extra = [
        ...(skillArg !== undefined ? ['SKILLS'] : []),
        ...PLAN_FLAGS.filter((k) => o[k] !== undefined && !(adoptionFlags as readonly string[]).includes(k)).map((k) => FLAG_NAMES[k] ?? `--${k}`),
      ];
      if (extra.length)
        throw usage(
          `${o.resume !== undefined ? '--resume continues with the run\u2019s saved settings' : '--restore takes only the run folder and --iteration'}; drop ${extra.join(', ')}`,
        );
    }
    if (o.restore !== undefined) return restore(ctx, o.restore, o.iteration);
    const say = (line: string) => ctx.io.print(ctx.io.style.dim(line));
    if (o.resume !== undefined) {
      const { resumeTune } = await import('./tune-setup.ts');
      const adoption = {
        ...(o.executor || o.evaluator || o.improver
          ? {
              backends: {
                ...(o.executor ? { executor: o.executor } : {}),
                ...(o.evaluator ? { evaluator: o.evaluator } : {}),
                ...(o.improver ? { improver: o.improver } : {}),
              },
            }
          : {}),
        ...(o.allowSelfEvaluation ? { allowSelfEvaluation: true } : {}),
      };
      return outcome(ctx, await resumeTune(ctx.kernel, o.resume, { signal: ctx.signal, say, adoption }), failBelow);
    }
    const { planTune } = await import('./tune-settings.ts');
    const plan = await planTune(skillArg, o, ctx.io);
    for (const note of plan.notes) ctx.io.warn(`note: ${note}`);
    if (plan.selfEvaluationAcknowledged)
      ctx.io.warn(
        ctx.io.style.yellow(
          `warning: the evaluator runs on the executor's backend (${plan.backends.executor}); its scores grade its own work and may be inflated`,
        ),
      );
    const { TUNE_JOB, tuneJobs } = await import('./tune-job.ts');
    const { notes: _, ...jobPlan } = plan;
    // In-process the plan is one job on this machine; with --queue the workers tune independent skills in parallel.
    const { dispatcher } = ctx.kernel;
    const jobs = tuneJobs(ctx.kernel.projectRoot, jobPlan, { spread: dispatcher.kind !== 'local', runDir: o.runDir });
    const needs = [...new Set(Object.values(plan.backends))];
    const settled = await Promise.allSettled(
      jobs.map((job) => {
        const skills = job.plan.skillArgs.join(',');
        const prefix = jobs.length > 1 ? `${skills}: ` : '';
        return dispatcher.run(TUNE_JOB, job, {
          signal: ctx.signal,
          label: `tune ${skills}`,
          needs,
          onProgress: (line) => void (typeof line === 'string' && say(`${prefix}${line}`)),
        });
      }),
    );
    return outcomes(ctx, jobs, settled, failBelow);
  },
});

const usage = (message: string) => new SluiceError('USAGE', { message });

function scoreFlag(value: string): number {
  const n = Number(value);
  if (value.trim() === '' || !Number.isFinite(n) || n < 0 || n > 100)
    throw new SluiceError('USAGE', { field: '--fail-below', message: `--fail-below must be a score from 0 to 100, got ${JSON.stringify(value)}` });
  return n;
}

async function restore(ctx: CommandContext, runDir: string, iterationFlag: string | undefined): Promise<CommandOutcome> {
  let iteration: number | undefined;
  if (iterationFlag !== undefined) {
    iteration = Number(iterationFlag);
    if (!Number.isInteger(iteration) || iteration < 1) throw usage(`--iteration must be a positive integer, got ${JSON.stringify(iterationFlag)}`);
  }
  const { restoreSkills } = await import('./restore-skills.ts');
  const r = await restoreSkills(ctx.kernel, runDir, iteration);
  const s = ctx.io.style;
  const lines = [`Restored ${r.skills.length} skill${r.skills.length === 1 ? '' : 's'} from ${r.source} of ${ctx.kernel.display(r.runDir)}:`];
  for (const k of r.skills)
    lines.push(
      `  ${k.path}: ${k.changed.length ? `${k.changed.length} file${k.changed.length === 1 ? '' : 's'} put back (${k.changed.join(', ')})` : s.dim('already identical')}`,
    );
  if (r.outside.putBack.length) lines.push(`  put back outside the skills: ${r.outside.putBack.join(', ')}`);
  for (const c of r.outside.couldNot) lines.push(`  ${s.yellow('could not undo')} ${c.path}: ${c.why}`);
  return { exitCode: 0, data: { runDir: r.runDir, source: r.source, skills: r.skills, outside: r.outside }, human: lines.join('\n') };
}

/** One job reports as a tune run always did; several (skills spread over workers) report each run in turn. */
function outcomes(ctx: CommandContext, jobs: TuneJobPayload[], settled: PromiseSettledResult<TuneJobResult>[], failBelow?: number): CommandOutcome {
  if (settled.length === 1) {
    const only = settled[0];
    if (only.status === 'rejected') throw only.reason;
    return outcome(ctx, only.value, failBelow);
  }
  const s = ctx.io.style;
  const runs: Record<string, unknown>[] = [];
  const human: string[] = [];
  let exitCode = 0;
  for (const [i, r] of settled.entries()) {
    const skills = jobs[i].plan.skillArgs.join(',');
    if (r.status === 'fulfilled') {
      const one = outcome(ctx, r.value, failBelow);
      exitCode = Math.max(exitCode, one.exitCode);
      runs.push({ skills, ranOn: r.value.ranOn, ...(one.data as Record<string, unknown>) });
      human.push(`${s.bold(skills)} ${s.dim(`(on ${r.value.ranOn})`)}`, one.human ?? '');
    } else {
      const error = r.reason instanceof SluiceError ? r.reason : new SluiceError('INTERNAL', { message: String(r.reason) });
      exitCode = Math.max(exitCode, error.exitCode);
      runs.push({ skills, error: error.toJSON() });
      human.push(`${s.bold(skills)} ${s.red('failed')}: ${error.message}`);
    }
  }
  return { exitCode, data: { runs }, human: human.join('\n') };
}

function outcome(ctx: CommandContext, r: TuneResult, failBelow?: number): CommandOutcome {
  const { state } = r;
  const t = state.termination!;
  const s = ctx.io.style;
  const display = (p: string) => ctx.kernel.display(p);
  const runRel = relative(ctx.kernel.projectRoot, r.runDir);
  const data = {
    runDir: r.runDir,
    reportPath: r.reportPath,
    chartPath: r.chartPath,
    statePath: `${r.runDir}/iteration-state.json`,
    alreadyFinished: r.alreadyFinished,
    reason: t.reason,
    message: t.message,
    falling: t.falling,
    iterations: state.iterations.map((it) => ({
      iteration: it.round,
      phase: it.phase,
      score: it.evaluation?.score ?? null,
      improvement: it.improvement?.status ?? null,
    })),
    finalScore: state.latest_score,
    best: state.best,
    threshold: state.quality_threshold,
    restoreCommand: `sluice tune --restore ${runRel}`,
    failures: failedIterations(state).map((f) => ({ iteration: f.round, note: f.note })),
    outsideChanges: state.iterations.flatMap((it) =>
      [...(it.execution?.outside_changes ?? []), ...(it.improvement?.outside_changes ?? [])].map((c) => ({ iteration: it.round, ...c })),
    ),
  };
  const notBack = data.outsideChanges.filter((c) => !c.restored);
  const ok = t.reason === 'quality_threshold_met';
  const head = `${r.alreadyFinished ? 'This run had already finished: ' : ''}${ok ? s.green(t.reason) : t.reason === 'error_limit_reached' ? s.red(t.reason) : s.yellow(t.reason)}: ${t.message}`;
  const human = [
    head,
    `  iterations ${state.current_iteration} · final score ${state.latest_score ?? 'none'} · best ${state.best ? `${state.best.score} (iteration ${state.best.iteration})` : 'none'} · threshold ${state.quality_threshold}${t.falling ? s.yellow(' · score falling') : ''}`,
    ...(t.reason === 'error_limit_reached'
      ? failedIterations(state)
          .slice(-state.max_errors)
          .map((f) => `  ${s.red('failed')} iteration ${f.round}: ${f.note}`)
      : []),
    ...(data.outsideChanges.length
      ? [
          `  ${s.yellow('outside changes')}: ${data.outsideChanges.length} path${data.outsideChanges.length === 1 ? '' : 's'} changed outside the allowed folders, ${
            notBack.length ? `${notBack.length} not put back (${notBack.map((c) => c.path).join(', ')})` : 'all put back'
          }`,
        ]
      : []),
    `  report:  ${display(r.reportPath)}`,
    `  restore: sluice tune --restore ${runRel}`,
  ].join('\n');
  // Running out of iterations or converging is a finished run; the error limit, or a run that never
  // got a score (so measured nothing), is a failure; so is a final score under --fail-below.
  const tooLow = failBelow !== undefined && (state.latest_score === null || state.latest_score < failBelow);
  if (tooLow) ctx.io.warn(`${s.red('error')} the final score ${state.latest_score ?? 'none'} is below --fail-below ${failBelow}`);
  const failed = t.reason === 'error_limit_reached' || state.score_trend.length === 0 || tooLow;
  return { exitCode: failed ? 1 : 0, data: { ...data, ...(failBelow === undefined ? {} : { failBelow, belowFailScore: tooLow }) }, human };
}
