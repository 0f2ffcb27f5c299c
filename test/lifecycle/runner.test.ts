import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { Kernel } from '../../core/index.ts';
import { demoScriptPath, runLifecycleDemo } from '../../plugins/lifecycle/demo.ts';
import type { LifecycleTransitionEvent } from '../../plugins/lifecycle/lifecycle-hooks.ts';
import { readWorkflowState } from '../../plugins/lifecycle/record-stage.ts';
import { runLifecycle } from '../../plugins/lifecycle/runner/run-lifecycle.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { gitIn, HOST_GRANT, makeLifecycle, makeRepo, writeFiles } from './lifecycle-fixture.ts';

/** Delegate runs per "<slug> <stage>" label, counted from the kernel's delegate:finish hook. */
function countCalls(kernel: Kernel): Map<string, number> {
  const calls = new Map<string, number>();
  kernel.hooks.on('delegate:finish', 'test', (e) => void calls.set(e.label ?? '?', (calls.get(e.label ?? '?') ?? 0) + 1));
  return calls;
}

type Reply = { text?: string; files?: Record<string, string>; json?: unknown };
const rule = (stage: string, reply: Reply | Reply[], slug = '(?<slug>\\S+)') => ({
  match: `^Stage: ${stage}\\nRequirement: ${slug}\\n`,
  ...(Array.isArray(reply) ? { replies: reply } : { reply }),
});
const dir = '.prizmkit/specs/$<slug>';
/** Implement replies that each change the code, as a real repair round does (an unchanged one is stale evidence). */
const changingImplements = (n: number): Reply[] =>
  Array.from({ length: n }, (_, i) => ({
    text: 'done',
    files: { 'src/$<slug>.js': `export default ${i + 1};\n`, [`${dir}/plan.md`]: '- [x] [T-001] do it\n' },
  }));
/** Test verdicts that differ per round (a byte-identical verdict from before the reroute is stale). */
const failingTests = (n: number, verdict: object): Reply[] =>
  Array.from({ length: n }, (_, i) => ({ text: 'fail', files: { [`${dir}/verdict.json`]: JSON.stringify({ ...verdict, run: i + 1 }) } }));
const finalResult = (verdict: string, major: number) =>
  `## Final Result\n\n- Verdict: ${verdict}\n- Critical: 0\n- Major: ${major}\n- Minor: 0\n- Total: ${major}\n`;

/** A script where every stage succeeds, with per-stage overrides. */
function script(overrides: Partial<Record<string, Reply | Reply[]>> = {}) {
  const base: Record<string, Reply | Reply[]> = {
    plan: { text: 'planned', files: { [`${dir}/plan.md`]: '- [ ] [T-001] do it\n' } },
    implement: { text: 'done', files: { 'src/$<slug>.js': 'export default 1;\n', [`${dir}/plan.md`]: '- [x] [T-001] do it\n' } },
    'code-review': { text: `# Review\n\n${finalResult('PASS', 0)}` },
    // Each run writes its own evidence: a stage sent back must not hand in the bytes of its earlier run.
    test: Array.from({ length: 5 }, (_, i) => ({
      text: 'ok',
      files: {
        [`${dir}/test-output.txt`]: `ok ${i + 1}
`,
        [`${dir}/verdict.json`]: JSON.stringify({ verdict: 'TEST_PASS', evidence: ['test-output.txt'], summary: `run ${i + 1}` }),
      },
    })),
    retrospective: Array.from({ length: 5 }, (_, i) => ({
      text: 'ok',
      files: { [`${dir}/retrospective-result.json`]: JSON.stringify({ result: 'NO_DOC_CHANGE', summary: `run ${i + 1}` }) },
    })),
    commit: { json: { message: 'feat: $<slug>', paths: ['src/$<slug>.js', dir] } },
  };
  return { version: 1, rules: Object.entries({ ...base, ...overrides }).map(([stage, reply]) => rule(stage, reply!)) };
}

async function setup(scriptBody: object, slugs = ['one'], files: Record<string, string> = {}, hostGrant: typeof HOST_GRANT | null = HOST_GRANT) {
  const root = await makeRepo(files);
  const { kernel, lc } = await makeLifecycle(root);
  await writeFile(join(root, 'script.json'), JSON.stringify(scriptBody));
  for (const slug of slugs) await startRequirement(lc, slug, { goal: `goal of ${slug}` });
  const calls = countCalls(kernel);
  const run = (grant = hostGrant) =>
    runLifecycle(lc, { slugs, backend: 'script', extra: { script: 'script.json' }, authorize: grant ? { hostGrant: grant } : {} });
  return { root, kernel, lc, calls, run };
}

describe('lifecycle run', () => {
  it('runs the demo: three requirements in parallel, a review-fix loop and a test-infrastructure repair, all committed', async () => {
    const root = await makeRepo();
    const { kernel } = await makeLifecycle(root);
    const transitions: LifecycleTransitionEvent[] = [];
    kernel.hooks.on('lifecycle:transition', 'test', (e) => void transitions.push(e));
    const summary = await runLifecycleDemo(kernel, root);
    const bySlug = Object.fromEntries(summary.requirements.map((r) => [r.slug, r]));
    assert.deepEqual(bySlug.greeting.stages, ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit']);
    assert.deepEqual(bySlug.slugify.stages, ['plan', 'implement', 'code-review', 'implement', 'code-review', 'test', 'retrospective', 'commit']);
    assert.deepEqual(
      bySlug['csv-export'].stages,
      ['plan', 'implement', 'code-review', 'test', 'implement', 'test', 'retrospective', 'commit'],
      'test-infrastructure repair skips the review',
    );
    assert.ok(summary.requirements.every((r) => r.status === 'COMMITTED'));
    assert.equal(summary.commits.length, 3);
    assert.equal(gitIn(root, 'status', '--porcelain'), '', 'everything the requirements changed is committed, nothing else is left');
    assert.ok(transitions.some((t) => t.slug === 'csv-export' && t.row === 'test-fail:test-infrastructure'));
    assert.ok(transitions.every((t) => t.writeMs >= 0 && t.root === root));
    const csv = await readWorkflowState((await makeLifecycle(root)).lc, 'csv-export');
    assert.equal(csv.repair_round, 1);
    assert.equal(csv.reroutes[0].kind, 'test-repair');
    assert.match(await kernel.host.readText(demoScriptPath(kernel.host)), /code-review/, 'the demo ran from the script the host says sluice ships');
  });

  it(`stops a review that always needs fixes after 3 outer repair rounds: review fixes count (repair-round-limit)`, async () => {
    const t = await setup(script({ implement: changingImplements(12), 'code-review': { text: `# Review\n\n${finalResult('NEEDS_FIXES', 1)}` } }));
    const summary = await t.run();
    assert.equal(summary.requirements[0].outcome, 'blocked');
    assert.equal(summary.requirements[0].blocker?.rule, 'repair-round-limit');
    assert.equal(t.calls.get('one code-review'), 4);
    assert.equal(t.calls.get('one implement'), 4);
    assert.equal(t.calls.get('one test'), undefined);
    assert.equal((await readWorkflowState(t.lc, 'one')).repair_round, 3);
  });

  it('stops tests that keep failing after 3 outer repair rounds (repair-round-limit)', async () => {
    const t = await setup(
      script({ implement: changingImplements(6), test: failingTests(6, { verdict: 'TEST_FAIL', repair_scope: 'runtime', failures: [{ test: 't' }] }) }),
    );
    const summary = await t.run();
    assert.equal(summary.requirements[0].blocker?.rule, 'repair-round-limit');
    assert.equal(t.calls.get('one test'), 4);
    assert.equal(t.calls.get('one implement'), 4);
    assert.equal(t.calls.get('one code-review'), 4, 'runtime repairs are reviewed again');
    assert.equal((await readWorkflowState(t.lc, 'one')).repair_round, 3);
  });

  it('TEST_BLOCKED retries only the test stage (bounded environment recovery), never implement, then blocks', async () => {
    const t = await setup(
      script({ test: { text: 'blocked', files: { [`${dir}/verdict.json`]: '{"verdict":"TEST_BLOCKED","blocker":"postgres is not running"}' } } }),
    );
    const summary = await t.run();
    assert.equal(summary.requirements[0].blocker?.rule, 'env-recovery-limit');
    assert.equal(t.calls.get('one test'), 3);
    assert.equal(t.calls.get('one implement'), 1);
  });

  it('a stage whose artifact stays invalid is retried with the error, then recorded as blocked naming the file', async () => {
    const t = await setup(script({ 'code-review': { text: '# Review\n\nLooks fine to me.\n' } }));
    const summary = await t.run();
    assert.equal(t.calls.get('one code-review'), 2);
    const blocker = summary.requirements[0].blocker!;
    assert.equal(blocker.rule, 'stage-blocked');
    assert.match(blocker.reason, /review-report\.md.*no "## Final Result" section/);
  });

  it('without a grant it stops at COMMIT_PENDING; after a manual code change, review and test run again before the commit', async () => {
    const t = await setup(script(), ['one'], { 'sluice.config.yaml': 'concurrency: 2\n' }, null);
    const first = await t.run();
    assert.equal(first.requirements[0].outcome, 'awaiting-authorization');
    assert.equal((await readWorkflowState(t.lc, 'one')).status, 'COMMIT_PENDING');
    await writeFiles(t.root, { 'src/one.js': 'export default 2; // edited by hand\n' });
    const second = await t.run(HOST_GRANT);
    assert.deepEqual(second.requirements[0].staleReset, ['code-review', 'test', 'retrospective']);
    assert.deepEqual(
      second.requirements[0].stages.map((s) => s.stage),
      ['code-review', 'test', 'retrospective', 'commit'],
    );
    assert.equal(second.requirements[0].outcome, 'committed');
  });

  it('the review and commit prompts list the workspace as the stage before left it', async () => {
    const body = script();
    // Each rule answers only a prompt listing the file the stage right before wrote (else the stage gets no answer).
    const needs: Record<string, string> = { 'code-review': 'src/one\\.js', commit: '\\.prizmkit/specs/one/retrospective-result\\.json' };
    for (const r of body.rules) {
      const stage = /\^Stage: ([\w-]+)/.exec(r.match)?.[1] ?? '';
      if (needs[stage]) r.match = `${r.match}[\\s\\S]*\\n- A ${needs[stage]}\\n`;
    }
    const t = await setup(body);
    const summary = await t.run();
    assert.equal(summary.requirements[0].outcome, 'committed', JSON.stringify(summary.requirements[0]));
  });

  it('a requirement owned by another orchestrator is not driven', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await writeFile(join(root, 'script.json'), JSON.stringify(script()));
    await startRequirement(lc, 'owned', { goal: 'x', orchestrator: 'prizmkit-workflow' });
    const summary = await runLifecycle(lc, { slugs: ['owned'], backend: 'script', extra: { script: 'script.json' } });
    assert.equal(summary.requirements[0].outcome, 'failed');
    assert.equal(summary.requirements[0].error?.code, 'ORCHESTRATOR_MISMATCH');
    assert.equal((await readWorkflowState(lc, 'owned')).status, null);
  });
});
