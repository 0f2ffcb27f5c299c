import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createKernel, definePlugin, loadConfig, type Kernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import type { IterationState } from '../../plugins/skill-tune/iteration-state-schema.ts';
import type { TuneIterationEvent, TuneScoredEvent, TuneTerminatedEvent } from '../../plugins/skill-tune/tune-hooks.ts';
import { startTune } from '../../plugins/skill-tune/tune-setup.ts';
import type { TunePlan } from '../../plugins/skill-tune/tune-settings.ts';

/** Temp projects with skills and a delegate script, and kernels that tune them on the `script` backend. */
export const skillText = (id: string, body = 'Do the task described in the scenario.') =>
  `---\nname: ${id}\ndescription: test skill ${id}\n---\n# ${id}\n\n${body}\n`;

export interface Reply {
  text?: string;
  files?: Record<string, string>;
  status?: 'ok' | 'error' | 'timeout';
  error?: string;
  delayMs?: number;
}
export interface Rule {
  match: string;
  flags?: string;
  reply?: Reply | string;
  replies?: (Reply | string)[];
}

/** All five dimensions at one value, so the recomputed composite is exactly that value. */
export const evalJson = (score: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    dimensions: { clarity: score, completeness: score, correctness: score, effectiveness: score, efficiency: score },
    strengths: ['it runs'],
    weaknesses: [`weakness at ${score}`],
    suggestions: [{ priority: 'high', target: 'SKILL.md', change: `raise ${score}` }],
    ...extra,
  });

export const executeAny: Rule = {
  match: 'role=execute iteration=(\\d+) ',
  reply: { text: 'ran iteration $1', files: { 'output.md': 'output of iteration $1\n' } },
};
export const improveAny = (id: string): Rule => ({
  match: 'role=improve iteration=(\\d+) ',
  reply: { text: 'improved $1', files: { [`${id}/SKILL.md`]: skillText(id, 'Improved in iteration $1.') } },
});
export const evaluateScores = (scores: number[]): Rule[] =>
  scores.map((s, i) => ({ match: `role=evaluate iteration=${i + 1} `, reply: { text: evalJson(s) } }));

export async function tuneProject(skills: Record<string, string>, rules: Rule[]): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-tune-'));
  for (const [id, text] of Object.entries(skills)) {
    await mkdir(join(dir, '.claude', 'skills', id), { recursive: true });
    await writeFile(join(dir, '.claude', 'skills', id, 'SKILL.md'), text);
  }
  await writeFile(join(dir, 'tune.yaml'), stringify({ version: 1, rules }));
  await writeFile(join(dir, 'sluice.config.yaml'), 'delegates:\n  script:\n    file: tune.yaml\n');
  return dir;
}

export interface Recorded {
  iteration: TuneIterationEvent[];
  scored: TuneScoredEvent[];
  terminated: TuneTerminatedEvent[];
}

/** A kernel like the CLI's, plus an observer plugin that records the tune hooks. */
export async function tuneKernel(dir: string): Promise<{ kernel: Kernel; events: Recorded }> {
  const host = createNodeHost({ cwd: dir });
  const { config } = await loadConfig(host, dir);
  const events: Recorded = { iteration: [], scored: [], terminated: [] };
  const recorder = definePlugin({
    name: 'test:tune-recorder',
    setup(ctx) {
      ctx.hook('tune:iteration', (e) => void events.iteration.push(e));
      ctx.hook('tune:scored', (e) => void events.scored.push(e));
      ctx.hook('tune:terminated', (e) => void events.terminated.push(e));
    },
  });
  const kernel = await createKernel({ host, config, projectRoot: dir, plugins: [...builtinPlugins, recorder] });
  return { kernel, events };
}

export const plan = (skills: string[], o: Partial<TunePlan> = {}): Omit<TunePlan, 'notes'> => ({
  skillArgs: skills,
  scenario: 'write the thing',
  mode: 'single',
  preset: 'standard',
  maxIterations: 5,
  threshold: 80,
  backends: { executor: 'script', evaluator: 'script', improver: 'script' },
  selfEvaluationAcknowledged: true,
  ...o,
});

/** A whole run, in process. */
export async function runTune(dir: string, skills: string[], o: Partial<TunePlan> = {}) {
  const { kernel, events } = await tuneKernel(dir);
  const lines: string[] = [];
  const result = await startTune(kernel, plan(skills, o), { say: (l) => lines.push(l) });
  return { result, events, lines, state: result.state };
}

export const readState = async (runDir: string): Promise<IterationState> => JSON.parse(await readFile(join(runDir, 'iteration-state.json'), 'utf8'));
export const read = (path: string) => readFile(path, 'utf8');
export const scoresOf = (s: IterationState) => s.iterations.map((it) => it.evaluation?.score ?? null);
