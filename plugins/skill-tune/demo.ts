import { join, relative } from 'pathe';
import { isInside, SluiceError, type Kernel } from '../../core/index.ts';
import { copyTree } from './skill-folders.ts';
import { TUNE_JOB, tuneJobs } from './tune-job.ts';
import { PRESETS } from './tune-settings.ts';

export interface TuneDemoResult {
  runDir: string;
  reportPath: string;
  chartPath: string;
  reason: string;
  iterations: number;
  scores: (number | null)[];
}

export const DEMO_SKILL = 'release-notes';
const DEMO_SCRIPT = 'tune-demo-script.yaml';

/**
 * The skill-tune part of `sluice demo`: copies the bundled `release-notes` skill into
 * `<projectDir>/.claude/skills/` and the bundled delegate script into the project, then runs a quick
 * tune with executor, evaluator and improver all on the `script` backend (scores 58.5 → 67.4 → 76.8,
 * threshold 70 reached in iteration 3). `projectDir` must be the kernel's project root or inside it.
 */
export async function runTuneDemo(
  kernel: Kernel,
  projectDir: string = kernel.projectRoot,
  o: { say?(line: string): void; signal?: AbortSignal } = {},
): Promise<TuneDemoResult> {
  if (!isInside(kernel.projectRoot, projectDir))
    throw new SluiceError('USAGE', { message: `demo folder ${projectDir} is outside the project ${kernel.projectRoot}` });
  const { host } = kernel;
  const skillDir = join(projectDir, '.claude', 'skills', DEMO_SKILL);
  await copyTree(host, host.asset('plugins', 'skill-tune', 'demo', DEMO_SKILL), skillDir);
  const script = join(projectDir, DEMO_SCRIPT);
  await host.writeAtomic(script, await host.readText(host.asset('plugins', 'skill-tune', 'demo', 'demo-script.yaml')));
  const plan = {
    skillArgs: [relative(kernel.projectRoot, skillDir)],
    scenario:
      'Write release notes for version 2.4.0 from these merged changes: "fix null check in parser", "add --verbose flag", "drop Node 18", "speed up cold start".',
    mode: 'single' as const,
    preset: 'quick' as const,
    maxIterations: PRESETS.quick.maxIterations,
    threshold: PRESETS.quick.threshold,
    backends: { executor: 'script', evaluator: 'script', improver: 'script' },
    // A replayed script has no judgement of its own to inflate; the report still says so.
    selfEvaluationAcknowledged: true,
  };
  const [job] = tuneJobs(kernel.projectRoot, plan, {
    spread: false,
    runDir: relative(kernel.projectRoot, join(projectDir, '.sluice', 'runs')),
    delegateExtra: { script: relative(kernel.projectRoot, script) },
  });
  // The durable-job queue: in this process, or a worker's with `sluice demo --queue`.
  const result = await kernel.dispatcher.run(TUNE_JOB, job, {
    signal: o.signal,
    label: `tune ${DEMO_SKILL}`,
    needs: ['script'],
    onProgress: (line) => void (typeof line === 'string' && o.say?.(line)),
  });
  return {
    runDir: result.runDir,
    reportPath: result.reportPath,
    chartPath: result.chartPath,
    reason: result.state.termination!.reason,
    iterations: result.state.current_iteration,
    scores: result.state.iterations.map((it) => it.evaluation?.score ?? null),
  };
}
