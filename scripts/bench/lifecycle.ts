// Lifecycle figures: 1,000 requirements through plan → … → COMMITTED with an instant `script` delegate at
// concurrency 8, in one git repository. Reports a transition's cost on its own (lock, read, validate,
// table, validate, invariant, atomic write, unlock; target ≤ 5 ms), the same write's latency inside the
// busy run, fingerprints, and the whole run. `BENCH_LIFECYCLE_N` changes the number of requirements.
import { execFileSync } from 'node:child_process';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { createLifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { runLifecycle } from '../../plugins/lifecycle/runner/run-lifecycle.ts';
import { applyTransition } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { applyEvent, type LifecycleEvent } from '../../plugins/lifecycle/apply-event.ts';
import { createFingerprinter, readWorkspace } from '../../plugins/lifecycle/workspace/workspace-fingerprint.ts';

export const name = 'lifecycle';

const N = Number(process.env.BENCH_LIFECYCLE_N ?? 1000);
const CONCURRENCY = 8;
const dir = '.prizmkit/specs/$<slug>';
const at = (stage: string) => `^Stage: ${stage}\\nRequirement: (?<slug>\\S+)\\n`;
const SCRIPT = {
  version: 1,
  rules: [
    { match: at('plan'), reply: { text: 'planned', files: { [`${dir}/plan.md`]: '- [ ] [T-001] add the module\n' } } },
    {
      match: at('implement'),
      reply: { text: 'done', files: { 'src/$<slug>.js': 'export default "$<slug>";\n', [`${dir}/plan.md`]: '- [x] [T-001] add the module\n' } },
    },
    { match: at('code-review'), reply: { text: '## Final Result\n\n- Verdict: PASS\n- Minor: 0\n- Total: 0\n' } },
    {
      match: at('test'),
      reply: { text: 'ok', files: { [`${dir}/test-output.txt`]: 'ok 1\n', [`${dir}/verdict.json`]: '{"verdict":"TEST_PASS","evidence":["test-output.txt"]}' } },
    },
    { match: at('retrospective'), reply: { text: 'ok', files: { [`${dir}/retrospective-result.json`]: '{"result":"NO_DOC_CHANGE"}' } } },
    { match: at('commit'), reply: { json: { message: 'feat($<slug>): add it', paths: ['src/$<slug>.js'] } } },
  ],
};

const percentile = (xs: number[], p: number) =>
  xs.length === 0 ? 0 : [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((xs.length * p) / 100))];
const round = (x: number) => Math.round(x * 100) / 100;

/**
 * The transition alone, one at a time: lock, read, validate, apply the table, validate, invariant, atomic
 * write (fsync file and folder), unlock. No artifact reading and no fingerprint (a fixed one is passed).
 */
async function isolatedTransitions(lc: ReturnType<typeof createLifecycleContext>): Promise<Record<string, number>> {
  const fingerprint = { head: null, diff: '0'.repeat(64) };
  const events: LifecycleEvent[] = [
    { kind: 'verdict', stage: 'plan', verdict: 'PLAN_READY' },
    { kind: 'verdict', stage: 'implement', verdict: 'IMPLEMENTED' },
    { kind: 'verdict', stage: 'code-review', verdict: 'PASS' },
    { kind: 'verdict', stage: 'test', verdict: 'TEST_PASS' },
    { kind: 'verdict', stage: 'retrospective', verdict: 'NO_DOC_CHANGE' },
  ];
  const times: number[] = [];
  for (let i = 0; i < 40; i++) {
    const slug = `iso-${i}`;
    await startRequirement(lc, slug);
    for (const event of events) {
      const t = performance.now();
      await applyTransition(lc, slug, null, (s) => applyEvent(s, event, { now: new Date().toISOString(), fingerprint, caller: null }));
      times.push(performance.now() - t);
    }
  }
  return { transitions: times.length, medianMs: round(percentile(times, 50)), p95Ms: round(percentile(times, 95)) };
}

export async function run(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-lifecycle-'));
  const git = (...args: string[]) => execFileSync('git', args, { cwd: root });
  git('init', '-q');
  git('config', 'user.name', 'bench');
  git('config', 'user.email', 'bench@sluice.invalid');
  git('config', 'commit.gpgsign', 'false');
  // The project keeps lifecycle artifacts out of git; commits carry the code only.
  await writeFile(join(root, '.gitignore'), '.sluice/\n.prizmkit/\n');
  await writeFile(join(root, 'script.json'), JSON.stringify(SCRIPT));
  git('add', '-A');
  git('commit', '-q', '-m', 'bench project');

  const host = createNodeHost({ cwd: root });
  const kernel = await createKernel({ host, projectRoot: root, plugins: builtinPlugins, concurrency: CONCURRENCY });
  const fingerprints: number[] = [];
  const workspace = createFingerprinter(async () => {
    const t = performance.now();
    const snapshot = await readWorkspace(host, root);
    fingerprints.push(performance.now() - t);
    return snapshot;
  });
  const lc = { ...createLifecycleContext(kernel, root), workspace, fingerprint: async () => (await workspace())?.fingerprint ?? null };
  // A project folder of its own (start refuses to create state through a root that does not exist).
  await mkdir(join(root, 'isolated'));
  const isolated = await isolatedTransitions(createLifecycleContext(kernel, join(root, 'isolated')));
  const writes: number[] = [];
  kernel.hooks.on('lifecycle:transition', 'bench', (e) => void writes.push(e.writeMs));
  const slugs = Array.from({ length: N }, (_, i) => `req-${String(i).padStart(4, '0')}`);
  const startedAt = performance.now();
  for (let i = 0; i < slugs.length; i += CONCURRENCY)
    await Promise.all(slugs.slice(i, i + CONCURRENCY).map((slug) => startRequirement(lc, slug, { goal: `requirement ${slug}` })));
  const startMs = performance.now() - startedAt;
  const hostGrant = { mode: 'bench', owner: 'sluice bench', local_commit_authorized: true as const };
  const summary = await runLifecycle(lc, { slugs, backend: 'script', extra: { script: 'script.json' }, authorize: { hostGrant } });
  const totalMs = performance.now() - startedAt;
  const commits = Number(execFileSync('git', ['rev-list', '--count', 'HEAD'], { cwd: root, encoding: 'utf8' })) - 1;
  if (summary.counts.committed !== N || commits !== N)
    throw new Error(
      `only ${summary.counts.committed} of ${N} committed (${commits} commits): ${JSON.stringify(summary.requirements.find((r) => r.outcome !== 'committed'))}`,
    );
  const mean = writes.reduce((a, b) => a + b, 0) / writes.length;
  return {
    requirements: N,
    concurrency: CONCURRENCY,
    transitions: writes.length,
    isolatedTransitionMs: { ...isolated, target: 5, withinTarget: isolated.medianMs <= 5 },
    transitionWriteMsDuringRun: {
      mean: round(mean),
      p50: round(percentile(writes, 50)),
      p95: round(percentile(writes, 95)),
      max: round(percentile(writes, 100)),
    },
    fingerprints: {
      computed: fingerprints.length,
      meanMs: round(fingerprints.reduce((a, b) => a + b, 0) / Math.max(1, fingerprints.length)),
      sharedBy: round(writes.length / Math.max(1, fingerprints.length)),
    },
    delegateRuns: summary.requirements.reduce((n, r) => n + r.stages.length, 0),
    commits,
    startMs: Math.round(startMs),
    totalMs: Math.round(totalMs),
    wallMsPerTransition: round(totalMs / writes.length),
    requirementsPerSecond: round(N / (totalMs / 1000)),
  };
}
