import assert from 'node:assert/strict';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createKernel } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { verifyJournal } from '../../plugins/lifecycle/journal/requirement-journal.ts';
import { createLifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import type { RequirementJobResult } from '../../plugins/lifecycle/remote/requirement-job.ts';
import { runLifecycleOnWorkers } from '../../plugins/lifecycle/remote/run-on-workers.ts';
import type { RunSummary } from '../../plugins/lifecycle/runner/run-lifecycle.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { createRedisQueue } from '../../plugins/queue-redis/index.ts';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { redisServerMissing, startRedisServer, type TestRedis } from '../helpers/redis-server.ts';

const queueKey = useTestQueueKey();
import { startTestWorker, type Hooks } from '../helpers/lifecycle-worker-process.ts';
import { gitIn, HOST_GRANT, makeRepo } from './lifecycle-fixture.ts';

const SLUGS = Array.from({ length: 12 }, (_, i) => `req-${String(i + 1).padStart(2, '0')}`);
const STAGES = ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit'];
/** What one requirement's journal says when every stage was recorded exactly once. */
const ROWS = ['start', 'claim', 'plan-ready', 'implemented', 'review-pass', 'test-pass', 'retro-no-doc-change', 'commit-pending', 'commit-intent', 'committed'];

/** A project with 12 requirements, its bare remote as origin, three workers and an orchestrator on one Redis. */
async function setup(t: Hooks) {
  const redis = await startRedisServer(t);
  // Every stage takes a moment, so a worker is killed in the middle of one.
  const root = await makeRepo({ 'script.json': JSON.stringify(passingScript({ slow: STAGES, delayMs: 400 })) });
  const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
  gitIn(root, 'clone', '-q', '--bare', root, remote);
  gitIn(root, 'remote', 'add', 'origin', remote);
  const keys = await mkdtemp(join(tmpdir(), 'sluice-keys-'));
  await writeFile(join(keys, 'commit-grant.key'), 'the-shared-grant-key-of-this-team\n', { mode: 0o600 });
  const keyFile = join(keys, 'commit-grant.key');
  const workers = await Promise.all([0, 1, 2].map(() => startTestWorker(t, redis.url)));
  const kernel = await createKernel({
    host: createNodeHost({ cwd: root }),
    projectRoot: root,
    plugins: builtinPlugins,
    dispatcher: () => createRedisQueue({ queueKey, url: redis.url }),
  });
  t.after(() => kernel.dispatcher.close?.());
  const lc = createLifecycleContext(kernel, root);
  for (const slug of SLUGS) await startRequirement(lc, slug, { goal: `goal of ${slug}` });
  const base = gitIn(root, 'rev-parse', 'HEAD').trim();
  const run = () =>
    runLifecycleOnWorkers(lc, {
      slugs: SLUGS,
      backend: 'script',
      extra: { script: 'script.json' },
      dispatcher: kernel.dispatcher,
      authorize: { hostGrant: { ...HOST_GRANT, requirements: SLUGS }, grantKeyFile: keyFile },
    });
  return { redis, root, remote, base, workers, run };
}

/** All 12 committed, each exactly one commit on its branch from the base, each journal intact with every stage once. */
function assertAllCommitted(summary: RunSummary, remote: string, base: string) {
  assert.deepEqual(
    summary.requirements.filter((r) => r.outcome !== 'committed').map((r) => [r.slug, r.outcome, r.error?.message]),
    [],
  );
  for (const slug of SLUGS) {
    const commits = gitIn(remote, 'rev-list', `${base}..refs/heads/sluice/${slug}`).trim().split('\n');
    assert.equal(commits.length, 1, `${slug}: one commit on sluice/${slug}`);
    const journal = gitIn(remote, 'show', `refs/sluice/checkpoints/${slug}:.prizmkit/state/journal/${slug}.jsonl`);
    const { entries, states } = verifyJournal(journal, `${slug}.jsonl`);
    assert.equal(states.at(-1)?.status, 'COMMITTED');
    assert.equal(states.at(-1)?.commit?.sha, commits[0], `${slug}: the journal records the commit on the branch`);
    assert.deepEqual(
      entries.map((e) => e.row).filter((r) => !r.startsWith('recovery')),
      ROWS,
      `${slug}: every stage recorded exactly once`,
    );
  }
}

const skip = redisServerMissing();

describe('lifecycle run on three workers over Redis', { skip }, () => {
  it('a worker SIGKILLed in the middle of a stage: its jobs resume on the others from their checkpoints; all 12 committed, nothing twice', async (t) => {
    const s = await setup(t);
    const running = s.run();
    // Kill the first worker while one of its stages (past the plan, so a checkpoint exists) is running.
    const victim = s.workers[0];
    let killedIn: string | undefined;
    for (;;) {
      const started = victim.lines.filter((l) => l.startsWith('start ') && !l.endsWith(' plan')).map((l) => l.slice(6));
      killedIn = started.find((label) => !victim.lines.includes(`finish ${label}`));
      if (killedIn) break;
      await new Promise((r) => setTimeout(r, 10));
    }
    victim.child.kill('SIGKILL');
    await victim.exited;
    assert.ok(!victim.lines.includes(`finish ${killedIn}`), `${killedIn} was still running when its worker died`);
    const summary = await running;
    assertAllCommitted(summary, s.remote, s.base);
    const slug = killedIn.split(' ')[0];
    const resumed = summary.requirements.find((r) => r.slug === slug) as RequirementJobResult;
    assert.equal(resumed.resumedFrom?.length, 40, `${slug} resumed from its last checkpoint`);
    const survivors = s.workers.slice(1).flatMap((w) => w.lines);
    const stage = killedIn.split(' ').slice(1).join(' ');
    const before = STAGES.slice(0, STAGES.indexOf(stage));
    for (const done of before) assert.ok(!survivors.includes(`start ${slug} ${done}`), `${slug} ${done} finished before the kill and is not run again`);
    assert.ok(survivors.includes(`start ${slug} ${stage}`), `${slug} ${stage} runs again on another worker`);
  });

  it('Redis restarted in the middle of the run: nothing lost, all 12 committed', async (t) => {
    const s = await setup(t);
    const running = s.run();
    // Restart once a few stages are done everywhere (checkpoints on the remote say how far the run got).
    for (;;) {
      const refs = gitIn(s.remote, 'for-each-ref', '--format=%(refname)', 'refs/sluice/checkpoints').trim();
      if (refs.split('\n').filter(Boolean).length >= 4) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    await (s.redis as TestRedis).restart();
    assertAllCommitted(await running, s.remote, s.base);
  });
});
