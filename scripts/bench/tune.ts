// Skill-tune figures: what the loop itself costs around the delegates (snapshots, state writes,
// prompts, reports), measured on the script backend so no AI time is included; and how fast the
// evaluator output readers are on large or hostile answers.
import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { createKernel, loadConfig } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runTuneDemo } from '../../plugins/skill-tune/demo.ts';
import { extractScoreHeuristically, parseEvaluationJson } from '../../plugins/skill-tune/parse-evaluation.ts';
import { startTune } from '../../plugins/skill-tune/tune-setup.ts';

export const name = 'tune';

const ITERATIONS = 10;
const SKILL_FILES = 20;

async function kernelIn(dir: string) {
  const host = createNodeHost({ cwd: dir });
  const { config } = await loadConfig(host, dir);
  return createKernel({ host, config, projectRoot: dir, plugins: builtinPlugins });
}

/** A 10-iteration run of a 20-file skill whose scores never reach the threshold nor converge. */
async function longRun(dir: string) {
  const skill = join(dir, 'skills', 'big');
  await mkdir(join(skill, 'refs'), { recursive: true });
  await writeFile(join(skill, 'SKILL.md'), `---\nname: big\ndescription: bench skill\n---\n${'Step.\n'.repeat(200)}`);
  for (let i = 1; i < SKILL_FILES; i++) await writeFile(join(skill, 'refs', `ref-${i}.md`), 'reference text\n'.repeat(100));
  const score = (n: number) =>
    JSON.stringify({
      dimensions: Object.fromEntries(['clarity', 'completeness', 'correctness', 'effectiveness', 'efficiency'].map((d) => [d, n])),
      weaknesses: ['w'],
      suggestions: ['s'],
    });
  const rules = [
    { match: 'role=execute ', reply: { text: 'done', files: { 'out.md': 'x'.repeat(10_000) } } },
    ...Array.from({ length: ITERATIONS }, (_, i) => ({ match: `role=evaluate iteration=${i + 1} `, reply: { text: score(10 + i * 5) } })),
    {
      match: 'role=improve iteration=(\\d+) ',
      reply: { text: 'ok', files: { 'big/SKILL.md': `---\nname: big\ndescription: bench skill\n---\n${'Step.\n'.repeat(200)}v$1\n` } },
    },
  ];
  await writeFile(join(dir, 'bench.yaml'), stringify({ version: 1, rules }));
  const kernel = await kernelIn(dir);
  const started = performance.now();
  const r = await startTune(
    kernel,
    {
      skillArgs: ['skills/big'],
      scenario: 'bench',
      mode: 'single',
      preset: 'custom',
      maxIterations: ITERATIONS,
      threshold: 99,
      backends: { executor: 'script', evaluator: 'script', improver: 'script' },
      selfEvaluationAcknowledged: true,
    },
    { delegateExtra: { script: 'bench.yaml' } },
  );
  const wallMs = performance.now() - started;
  if (r.state.current_iteration !== ITERATIONS) throw new Error(`bench run stopped early: ${r.state.termination?.reason}`);
  return { wallMs, stateBytes: (await stat(join(r.runDir, 'iteration-state.json'))).size };
}

function timeIt(fn: () => unknown, rounds: number): number {
  const started = performance.now();
  for (let i = 0; i < rounds; i++) fn();
  return (performance.now() - started) / rounds;
}

export async function run(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-tune-'));
  try {
    await mkdir(join(root, 'demo'));
    const demoKernel = await kernelIn(join(root, 'demo'));
    const demoStart = performance.now();
    const demo = await runTuneDemo(demoKernel);
    const demoMs = performance.now() - demoStart;
    await mkdir(join(root, 'long'));
    const long = await longRun(join(root, 'long'));
    const answer = JSON.stringify({
      dimensions: { clarity: 80, completeness: 70, correctness: 90, effectiveness: 60, efficiency: 75 },
      strengths: ['a'],
      weaknesses: ['b'],
      suggestions: Array.from({ length: 20 }, (_, i) => ({ priority: 'high', change: `s${i}` })),
    });
    // A 200 KB answer full of braces and dimension names: the readers must stay linear.
    const hostile = `${'{"clarity": [{ '.repeat(5_000)} Clarity: 7 overall ${'x'.repeat(100_000)}`;
    return {
      demoIterations: demo.iterations,
      demoWallMs: Math.round(demoMs),
      longRunIterations: ITERATIONS,
      longRunSkillFiles: SKILL_FILES,
      longRunWallMs: Math.round(long.wallMs),
      overheadPerIterationMs: Math.round(long.wallMs / ITERATIONS),
      stateBytesAfter10Iterations: long.stateBytes,
      parseJsonAnswerUs: Math.round(timeIt(() => parseEvaluationJson(answer), 2000) * 1000),
      parseHostile200KbMs: Math.round(timeIt(() => parseEvaluationJson(hostile), 5) * 10) / 10,
      heuristicHostile200KbMs: Math.round(timeIt(() => extractScoreHeuristically(hostile), 5) * 10) / 10,
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
