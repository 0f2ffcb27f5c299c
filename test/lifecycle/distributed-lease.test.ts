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
import { runLifecycleOnWorkers } from '../../plugins/lifecycle/remote/run-on-workers.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { createRedisQueue } from '../../plugins/queue-redis/index.ts';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { startTestWorker, type TestWorker } from '../helpers/lifecycle-worker-process.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { redisServerMissing, startRedisServer } from '../helpers/redis-server.ts';
import { gitIn, HOST_GRANT, makeRepo } from './lifecycle-fixture.ts';

const queueKey = useTestQueueKey();
const until = async (ok: () => boolean) => {
  // No deadline: what fails is the file's time limit, with the assertions' output.
  while (!ok()) await new Promise((r) => setTimeout(r, 20));
};

describe('leases that end the work (real redis-server)', { skip: redisServerMissing() }, () => {
  it('a worker frozen (SIGSTOP) in a stage past its lease: another takes the job over, the frozen one cancels its stage when it thaws and discards it; the stage counts once', async (t) => {
    const redis = await startRedisServer(t);
    // Long enough that the frozen worker's stage cannot end on its own before the takeover is over.
    const root = await makeRepo({ 'script.json': JSON.stringify(passingScript({ slow: ['implement'], delayMs: 15_000 })) });
    const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
    gitIn(root, 'clone', '-q', '--bare', root, remote);
    gitIn(root, 'remote', 'add', 'origin', remote);
    const keyFile = join(await mkdtemp(join(tmpdir(), 'sluice-keys-')), 'commit-grant.key');
    await writeFile(keyFile, 'the-shared-grant-key-of-this-team\n', { mode: 0o600 });
    // Short leases, so the takeover comes soon; nothing below waits for a time, only for what the workers say.
    const workers = await Promise.all([0, 1].map(() => startTestWorker({ after: (fn) => redis.beforeStop(fn) }, redis.url, { leaseMs: 1500 })));
    const kernel = await createKernel({
      host: createNodeHost({ cwd: root }),
      projectRoot: root,
      plugins: builtinPlugins,
      dispatcher: () => createRedisQueue({ url: redis.url, queueKey }),
    });
    redis.beforeStop(() => kernel.dispatcher.close?.());
    const lc = createLifecycleContext(kernel, root);
    await startRequirement(lc, 'north', { goal: 'goal of north' });
    const base = gitIn(root, 'rev-parse', 'HEAD').trim();
    const running = runLifecycleOnWorkers(lc, {
      slugs: ['north'],
      backend: 'script',
      extra: { script: 'script.json' },
      dispatcher: kernel.dispatcher,
      authorize: { hostGrant: { ...HOST_GRANT, requirements: ['north'] }, grantKeyFile: keyFile },
    });
    const inStage = (w: TestWorker) => w.lines.includes('start north implement');
    await until(() => workers.some(inStage));
    const frozen = workers.find(inStage)!;
    const other = workers.find((w) => w !== frozen)!;
    frozen.child.kill('SIGSTOP');
    await until(() => inStage(other));
    frozen.child.kill('SIGCONT');
    const summary = await running;
    assert.deepEqual(
      summary.requirements.map((r) => [r.slug, r.outcome, r.error?.message]),
      [['north', 'committed', undefined]],
    );
    await until(() => frozen.lines.some((l) => l.includes('"type":"discarded"')));
    assert.ok(
      frozen.lines.some((l) => l.includes('"type":"lease-lost"')),
      frozen.lines.join('\n'),
    );
    assert.ok(frozen.lines.includes('result north implement cancelled'), `the frozen worker's stage was cancelled:\n${frozen.lines.join('\n')}`);
    const finished = workers.flatMap((w) => w.lines).filter((l) => l === 'result north implement ok');
    assert.equal(finished.length, 1, 'the stage ran to its end once, on the worker that took the job over');
    assert.equal(gitIn(remote, 'rev-list', `${base}..refs/heads/sluice/north`).trim().split('\n').length, 1);
    const journal = gitIn(remote, 'show', 'refs/sluice/checkpoints/north:.prizmkit/state/journal/north.jsonl');
    const rows = verifyJournal(journal, 'north.jsonl')
      .entries.map((e) => e.row)
      .filter((r) => r === 'implemented');
    assert.deepEqual(rows, ['implemented'], 'implement recorded once');
  });
});
