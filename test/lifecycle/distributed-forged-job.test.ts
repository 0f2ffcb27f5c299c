import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { Job, Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { queueKeyFrom } from '../../core/index.ts';
import { signJob } from '../../plugins/queue-redis/job-signature.ts';
import { names, PREFIX, type WireJob } from '../../plugins/queue-redis/queue-names.ts';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { redisServerMissing, startRedisServer } from '../helpers/redis-server.ts';
import { sluiceEntry } from '../helpers/run-cli.ts';
import { startWorkerProcess } from '../helpers/sluice-worker.ts';
import { gitIn, makeRepo, writeFiles } from './lifecycle-fixture.ts';

const queueKey = useTestQueueKey();
const IDENTITY = { GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'w@example.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'w@example.invalid' };

/**
 * Someone who can write to the queue's Redis but holds no queue key writes `lifecycle:requirement` jobs
 * by hand (BullMQ's own client, as any Redis user could), seeding the worker's clone with a `.git/config`
 * whose fsmonitor and clean filter would run commands, and `.git/info/attributes` applying the filter.
 */
describe('a job written into Redis by hand (real redis-server, real `sluice worker`)', { skip: redisServerMissing() }, () => {
  it('unsigned, wrongly signed, or signed but seeding .git/: refused before anything runs, not retried, nothing committed', async (t) => {
    const redis = await startRedisServer(t);
    const root = await makeRepo({ 'script.json': JSON.stringify(passingScript()) });
    const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
    gitIn(root, 'clone', '-q', '--bare', root, remote);
    await writeFiles(root, { '.prizmkit/specs/evil/spec.md': '# evil\n\n## Goal\n\nRun my commands.\n' });
    const base = gitIn(root, 'rev-parse', 'HEAD').trim();
    const markers = await mkdtemp(join(tmpdir(), 'sluice-markers-'));
    const ran = (name: string) => join(markers, name);
    const workerHome = await mkdtemp(join(tmpdir(), 'sluice-worker-'));
    const worker = startWorkerProcess(
      { after: (fn) => redis.beforeStop(fn) },
      { bin: sluiceEntry(), cwd: workerHome, url: redis.url, args: ['--workdir', join(workerHome, 'clones')], env: IDENTITY },
    );
    await worker.ready;

    const queue = new Queue('jobs', { connection: { host: '127.0.0.1', port: redis.port }, prefix: PREFIX });
    redis.beforeStop(() => queue.close());
    const payload = {
      slug: 'evil',
      remote,
      base,
      backend: 'script',
      maxAttempts: 1,
      extra: { script: 'script.json' },
      seed: {
        '.git/config': `[core]\n\tfsmonitor = "touch ${ran('fsmonitor')}; false"\n[filter "x"]\n\tclean = "touch ${ran('filter')}; cat"\n`,
        '.git/info/attributes': '* filter=x\n',
        '.prizmkit/specs/evil/spec.md': '# evil\n\n## Goal\n\nRun my commands.\n',
      },
    };
    const wire: WireJob = { payload, label: 'evil', needs: [], from: 'attacker:1' };
    const otherKey = queueKeyFrom('a-key-the-attacker-made-up-0123456789abcdef', '/attacker/queue.key');
    const cases = [
      { id: 'unsigned', data: wire, code: 'QUEUE_JOB_UNSIGNED' },
      { id: 'forged', data: signJob(otherKey, 'jobs', 'forged', 'lifecycle:requirement', wire), code: 'QUEUE_JOB_FORGED' },
      // Signed with the real key (a machine with the key queued a bad seed): the worker still checks every path.
      { id: 'signed-git-seed', data: signJob(queueKey, 'jobs', 'signed-git-seed', 'lifecycle:requirement', wire), code: 'QUEUE_JOB_PATH_REFUSED' },
    ];
    // The signed job's orchestrator (a holder of the key) is alive: its heartbeat, as a running `lifecycle run` keeps it.
    const client = new Redis(redis.port, '127.0.0.1');
    redis.beforeStop(() => client.disconnect());
    await client.set(names.orchestrator('attacker:1'), '1', 'PX', 600_000);
    for (const c of cases) {
      await queue.add('lifecycle:requirement', c.data, { jobId: c.id, attempts: 3, removeOnFail: false });
      for (;;) {
        // State first: a job read before it failed would have no reason yet.
        const failed = (await queue.getJobState(c.id)) === 'failed';
        const job = failed ? await Job.fromId(queue, c.id) : undefined;
        if (job) {
          assert.match(job.failedReason ?? '', new RegExp(c.code), `${c.id}: ${job.failedReason}`);
          assert.equal(job.attemptsMade, 1, `${c.id}: failed once, not retried`);
          break;
        }
        await new Promise((r) => setTimeout(r, 50));
      }
    }
    await worker.printed(/refused lifecycle:requirement forged: QUEUE_JOB_FORGED/);
    assert.match(worker.stdout(), /refused lifecycle:requirement unsigned: QUEUE_JOB_UNSIGNED/);
    assert.match(worker.stdout(), /failed lifecycle:requirement evil: .*\.git/);
    assert.ok(!existsSync(ran('fsmonitor')), 'the fsmonitor command never ran');
    assert.ok(!existsSync(ran('filter')), 'the clean filter never ran');
    assert.equal(
      gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/heads/sluice', 'refs/sluice').trim(),
      '',
      'nothing pushed: no branch, no checkpoint',
    );
    assert.ok(!existsSync(join(workerHome, 'clones', 'evil', '.git', 'info', 'attributes')), 'the seed wrote nothing into .git');
    worker.child.kill('SIGTERM');
    await worker.exited;
  });
});
