import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createLocalQueue, type Kernel, type SluiceError } from '../../core/index.ts';
import { verifyJournal } from '../../plugins/lifecycle/journal/requirement-journal.ts';
import { adoptCheckpoint } from '../../plugins/lifecycle/remote/adopt-checkpoint.ts';
import { pushRef } from '../../plugins/lifecycle/remote/remote-git.ts';
import { configureRequirementJobs, runRequirementJob } from '../../plugins/lifecycle/remote/requirement-job.ts';
import { runLifecycleOnWorkers } from '../../plugins/lifecycle/remote/run-on-workers.ts';
import { readWorkflowState } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { gitIn, HOST_GRANT, makeLifecycle, makeRepo } from './lifecycle-fixture.ts';

useTestQueueKey();

const script = (slow?: string) => passingScript(slow ? { slow: [slow] } : {});

/** A project with a bare remote as its origin, requirements started locally, and a grant key. */
async function setup(slugs: string[], o: { external?: boolean } = {}) {
  const root = await makeRepo({ 'script.json': JSON.stringify(script()) });
  // An outside script can be changed between runs without changing the project's base commit.
  const external = join(await mkdtemp(join(tmpdir(), 'sluice-script-')), 'script.json');
  await writeFile(external, JSON.stringify(script()));
  const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
  gitIn(root, 'clone', '-q', '--bare', root, remote);
  gitIn(root, 'remote', 'add', 'origin', remote);
  const keyFile = join(await mkdtemp(join(tmpdir(), 'sluice-key-')), 'commit-grant.key');
  await writeFile(keyFile, 'a-test-signing-key-0123456789\n', { mode: 0o600 });
  const { kernel, lc } = await makeLifecycle(root, {
    GIT_AUTHOR_NAME: 'Worker',
    GIT_AUTHOR_EMAIL: 'worker@example.invalid',
    GIT_COMMITTER_NAME: 'Worker',
    GIT_COMMITTER_EMAIL: 'worker@example.invalid',
  });
  const workdir = await mkdtemp(join(tmpdir(), 'sluice-workdir-'));
  configureRequirementJobs(kernel, { workdir });
  for (const slug of slugs) await startRequirement(lc, slug, { goal: `goal of ${slug}` });
  const calls = new Map<string, number>();
  kernel.hooks.on('delegate:finish', 'test', (e) => void calls.set(e.label ?? '?', (calls.get(e.label ?? '?') ?? 0) + 1));
  const base = gitIn(root, 'rev-parse', 'HEAD').trim();
  const run = (extra: { grant?: boolean; signal?: AbortSignal; onStage?: (slug: string, stage: string | null) => void } = {}) =>
    runLifecycleOnWorkers(lc, {
      slugs,
      backend: 'script',
      extra: { script: o.external ? external : 'script.json' },
      dispatcher: dispatcher(kernel, extra.onStage),
      authorize: extra.grant === false ? {} : { hostGrant: HOST_GRANT, grantKeyFile: keyFile },
      ...(extra.signal ? { signal: extra.signal } : {}),
    });
  return { root, remote, kernel, lc, calls, base, run, workdir, external };
}

/** The in-process durable queue, with a spy on the stages the jobs report. */
function dispatcher(kernel: Kernel, onStage?: (slug: string, stage: string | null) => void) {
  const queue = createLocalQueue({ concurrency: 4 });
  queue.register('lifecycle:requirement', (payload, job) =>
    runRequirementJob(kernel, payload, {
      ...job,
      progress: (d: unknown) => onStage?.((d as { slug: string }).slug, (d as { stage: string | null }).stage),
    } as typeof job),
  );
  return queue;
}

/** The journal as the checkpoint on the remote holds it, checked (chain, sequence, rules). */
function remoteJournal(remote: string, slug: string) {
  const text = gitIn(remote, 'show', `refs/sluice/checkpoints/${slug}:.prizmkit/state/journal/${slug}.jsonl`);
  return verifyJournal(text, `${slug}.jsonl`);
}

describe('lifecycle run on workers (in-process dispatcher, git remote)', () => {
  it('each requirement runs in its own clone: one commit on sluice/<slug> from the base, a checkpoint with a consistent journal', async () => {
    const t = await setup(['alpha', 'beta', 'gamma']);
    const summary = await t.run();
    assert.deepEqual(
      summary.requirements.map((r) => [r.slug, r.outcome]),
      [
        ['alpha', 'committed'],
        ['beta', 'committed'],
        ['gamma', 'committed'],
      ],
    );
    for (const slug of ['alpha', 'beta', 'gamma']) {
      const commits = gitIn(t.remote, 'rev-list', `${t.base}..refs/heads/sluice/${slug}`).trim().split('\n');
      assert.equal(commits.length, 1, `${slug}: exactly one commit on its branch`);
      assert.equal(gitIn(t.remote, 'rev-parse', `refs/heads/sluice/${slug}^`).trim(), t.base, 'branched from the recorded base');
      // Made as whoever ran the orchestrator (its project's identity), not as the worker's account.
      assert.equal(
        gitIn(t.remote, 'log', '-1', '--format=%an <%ae>|%cn <%ce>', `sluice/${slug}`).trim(),
        'Test <test@example.invalid>|Test <test@example.invalid>',
      );
      assert.deepEqual(
        gitIn(t.remote, 'show', '--name-only', '--format=', `sluice/${slug}`).trim().split('\n').sort(),
        [
          `.prizmkit/specs/${slug}/plan.md`,
          `.prizmkit/specs/${slug}/review-report.md`,
          `.prizmkit/specs/${slug}/commit-request.json`,
          `.prizmkit/specs/${slug}/retrospective-result.json`,
          `.prizmkit/specs/${slug}/spec.md`,
          `.prizmkit/specs/${slug}/test-output.txt`,
          `.prizmkit/specs/${slug}/verdict.json`,
          `src/${slug}.js`,
        ].sort(),
      );
      const { states, entries } = remoteJournal(t.remote, slug);
      assert.equal(states.at(-1)?.status, 'COMMITTED');
      assert.equal(states.at(-1)?.commit?.sha, commits[0]);
      assert.equal(entries.filter((e) => e.row.startsWith('recovery')).length, 0, 'a first run recovers nothing');
      assert.equal(t.calls.get(`${slug} test`), 1);
    }
    assert.equal(gitIn(t.root, 'status', '--porcelain', '--', 'src'), '', "the orchestrator's own workspace is untouched");
    // The orchestrator's records caught up with the workers': status says committed, a new run has nothing to do.
    for (const slug of ['alpha', 'beta', 'gamma']) assert.equal((await readWorkflowState(t.lc, slug)).status, 'COMMITTED');
    const again = await t.run();
    assert.deepEqual(
      again.requirements.map((r) => [r.outcome, r.stages.length]),
      [
        ['committed', 0],
        ['committed', 0],
        ['committed', 0],
      ],
    );
  });

  it('a run without commit authority stops at COMMIT_PENDING; the next run resumes from the checkpoint through recover and only commits', async () => {
    const t = await setup(['delta']);
    const first = await t.run({ grant: false });
    assert.equal(first.requirements[0].outcome, 'awaiting-authorization');
    assert.match((first.requirements[0] as { authorization?: string }).authorization ?? '', /not authorized|no terminal/);
    assert.equal(gitIn(t.remote, 'branch', '--list', 'sluice/delta').trim(), '', 'nothing committed');
    assert.equal(remoteJournal(t.remote, 'delta').states.at(-1)?.status, 'COMMIT_PENDING');
    const second = await t.run();
    assert.equal(second.requirements[0].outcome, 'committed');
    assert.equal((second.requirements[0] as { resumedFrom?: string }).resumedFrom?.length, 40);
    for (const stage of ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit'])
      assert.equal(t.calls.get(`delta ${stage}`), 1, `${stage} ran once`);
    const { entries, states } = remoteJournal(t.remote, 'delta');
    assert.equal(states.at(-1)?.status, 'COMMITTED');
    assert.equal((second.requirements[0] as { recovery?: string }).recovery, 'at commit (prizmkit-committer)', 'the resume went through recover');
    assert.deepEqual(
      entries.map((e) => e.row),
      ['start', 'claim', 'plan-ready', 'implemented', 'review-pass', 'test-pass', 'retro-no-doc-change', 'commit-pending', 'commit-intent', 'committed'],
      'every stage recorded once, across both runs',
    );
    assert.equal(gitIn(t.remote, 'rev-list', `${t.base}..sluice/delta`).trim().split('\n').length, 1);
  });

  it('a job stopped in the middle of a stage resumes at that stage from the last checkpoint, redoing nothing before it', async () => {
    const t = await setup(['epsilon'], { external: true });
    await writeFile(t.external, JSON.stringify(script('test')));
    const stop = new AbortController();
    const first = await t.run({ signal: stop.signal, onStage: (_s, stage) => stage === 'test' && stop.abort() });
    assert.equal(first.requirements[0].outcome, 'interrupted', JSON.stringify(first.requirements[0].error));
    assert.equal(remoteJournal(t.remote, 'epsilon').states.at(-1)?.status, 'REVIEW_PASS', 'the last checkpoint is after code review');
    // The slow stage is fast now (a new worker); everything before it comes from the checkpoint.
    await writeFile(t.external, JSON.stringify(script()));
    const second = await t.run();
    assert.equal(second.requirements[0].outcome, 'committed');
    assert.deepEqual(
      second.requirements[0].stages.map((s) => s.stage),
      ['test', 'retrospective', 'commit'],
    );
    for (const stage of ['plan', 'implement', 'code-review']) assert.equal(t.calls.get(`epsilon ${stage}`), 1, `${stage} is not redone`);
    const { entries, states } = remoteJournal(t.remote, 'epsilon');
    assert.equal(states.at(-1)?.status, 'COMMITTED');
    assert.equal(entries.filter((e) => e.row.startsWith('test')).length, 1, 'the interrupted test is recorded once');
  });

  it('a worker that lost its job cannot overwrite the checkpoint the worker that took it over pushed', async () => {
    const t = await setup(['theta'], { external: true });
    await writeFile(t.external, JSON.stringify(script('test')));
    const stop = new AbortController();
    await t.run({ signal: stop.signal, onStage: (_s, stage) => stage === 'test' && stop.abort() });
    // The first worker's view of the checkpoint, then another worker finishes the job and moves it on.
    const seen = gitIn(t.remote, 'rev-parse', 'refs/sluice/checkpoints/theta').trim();
    await writeFile(t.external, JSON.stringify(script()));
    assert.equal((await t.run()).requirements[0].outcome, 'committed');
    const clone = join(t.workdir, 'theta');
    const late = gitIn(clone, 'commit-tree', `${seen}^{tree}`, '-p', `${seen}^`, '-m', 'a late checkpoint').trim();
    await assert.rejects(
      pushRef(t.kernel.host, clone, t.remote, late, 'refs/sluice/checkpoints/theta', seen),
      (e: SluiceError) => e.code === 'GIT_FAILED' && /another worker moved it/.test(e.message),
    );
    assert.equal(remoteJournal(t.remote, 'theta').states.at(-1)?.status, 'COMMITTED', 'the newer checkpoint stays');
  });

  it('a base commit that is not on the remote fails the job saying so, before any stage runs', async () => {
    const t = await setup(['iota']);
    gitIn(t.root, 'commit', '-q', '--allow-empty', '-m', 'not pushed');
    const summary = await t.run();
    assert.equal(summary.requirements[0].outcome, 'failed');
    assert.equal(summary.requirements[0].error?.code, 'GIT_FAILED');
    assert.match(summary.requirements[0].error?.message ?? '', /the base commit [0-9a-f]{12} is not on .*project\.git: push it there first/);
    assert.equal(t.calls.size, 0);
  });

  it('a remote that refuses the push fails the job with git’s own error, not a hang', async () => {
    const t = await setup(['zeta']);
    await writeFile(join(t.remote, 'hooks', 'pre-receive'), '#!/bin/sh\necho "no push rights for this worker" >&2\nexit 1\n', { mode: 0o755 });
    const summary = await t.run();
    assert.equal(summary.requirements[0].outcome, 'failed');
    assert.equal(summary.requirements[0].error?.code, 'GIT_FAILED');
    assert.match(summary.requirements[0].error?.message ?? '', /no push rights for this worker/);
  });

  it('a checkpoint pushed without the queue key is refused: the orchestrator adopts nothing of it, the next run neither resumes from it nor commits', async () => {
    const t = await setup(['eta']);
    assert.equal((await t.run({ grant: false })).requirements[0].outcome, 'awaiting-authorization');
    const ref = 'refs/sluice/checkpoints/eta';
    const real = gitIn(t.remote, 'rev-parse', ref).trim();
    // Someone who can push but has no queue key: the real checkpoint's message (its trailers, its old signature) over other code.
    const forger = join(await mkdtemp(join(tmpdir(), 'sluice-forger-')), 'clone');
    gitIn(t.root, 'clone', '-q', t.remote, forger);
    gitIn(forger, 'fetch', '-q', 'origin', `${ref}:${ref}`);
    gitIn(forger, 'read-tree', real);
    await writeFile(join(forger, 'forged.js'), 'process.exit(1)\n');
    gitIn(forger, 'update-index', '--add', 'forged.js');
    const tree = gitIn(forger, 'write-tree').trim();
    const message = gitIn(forger, 'log', '-1', '--format=%B', real);
    const forged = execFileSync('git', ['commit-tree', tree, '-p', `${real}^`, '-F', '-'], {
      cwd: forger,
      input: message,
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 'Forger',
        GIT_AUTHOR_EMAIL: 'f@example.invalid',
        GIT_COMMITTER_NAME: 'Forger',
        GIT_COMMITTER_EMAIL: 'f@example.invalid',
      },
    }).trim();
    gitIn(forger, 'push', '-q', '--force', 'origin', `${forged}:${ref}`);

    const stagesBefore = [...t.calls.entries()];
    const journalBefore = await readFile(join(t.root, '.prizmkit/state/journal/eta.jsonl'), 'utf8');
    await assert.rejects(adoptCheckpoint(t.lc, t.remote, 'eta', forged, useTestQueueKey()), (e: SluiceError) => e.code === 'QUEUE_CHECKPOINT_FORGED');
    assert.equal(await readFile(join(t.root, '.prizmkit/state/journal/eta.jsonl'), 'utf8'), journalBefore, 'nothing adopted');

    const summary = await t.run();
    assert.equal(summary.requirements[0].outcome, 'failed');
    assert.equal(summary.requirements[0].error?.code, 'QUEUE_CHECKPOINT_FORGED', String(summary.requirements[0].error?.message));
    assert.equal(gitIn(t.remote, 'branch', '--list', 'sluice/eta').trim(), '', 'nothing committed');
    assert.deepEqual([...t.calls.entries()], stagesBefore, 'no stage ran on the forged checkpoint');
  });
});
