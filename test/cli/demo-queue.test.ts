import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { redisServerMissing, startRedisServer } from '../helpers/redis-server.ts';
import { runCli } from '../helpers/run-cli.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';

// The demo makes a queue key where there is none: the test's own, not the person's.
useTestQueueKey();

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe('sluice demo --queue', { skip: redisServerMissing() }, () => {
  it('runs the lifecycle and the tune on two worker processes it starts, with the in-process demo’s outcome, and stops them', async (t) => {
    const redis = await startRedisServer(t);
    const dir = join(await mkdtemp(join(tmpdir(), 'sluice-demo-queue-')), 'demo');
    // As on a fresh CI machine: no global git identity. The workers' clones carry no local config
    // either, so the demo gives its workers its own identity.
    const r = await runCli(['demo', '--json', '--dir', dir, '--queue', redis.url], { env: { GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1' } });
    assert.equal(r.code, 0, r.stderr);
    const d = JSON.parse(r.stdout) as {
      lifecycle: { requirements: { slug: string; status: string; stages: string[]; commit: string }[] };
      tune: { reason: string; scores: number[]; runDir: string };
      workers: { pid: number; workdir: string }[];
      queue: string;
    };
    assert.equal(d.queue, redis.url);
    assert.equal(d.workers.length, 2);
    assert.ok(
      d.workers.every((w) => !alive(w.pid)),
      'the demo stops the workers it started',
    );
    // What the in-process demo ends with (test/lifecycle/runner.test.ts): the same stages, all committed.
    assert.deepEqual(
      d.lifecycle.requirements.map((x) => [x.slug, x.status, x.stages.length]),
      [
        ['greeting', 'COMMITTED', 6],
        ['slugify', 'COMMITTED', 8],
        ['csv-export', 'COMMITTED', 8],
      ],
    );
    // The commits were made by workers and pushed to sluice/<slug> of the project's origin.
    const remote = join(dir, 'lifecycle-project.git');
    for (const x of d.lifecycle.requirements) {
      assert.equal(execFileSync('git', ['rev-parse', `refs/heads/sluice/${x.slug}`], { cwd: remote, encoding: 'utf8' }).trim(), x.commit);
      assert.equal(
        execFileSync('git', ['log', '-1', '--format=%an <%ae>', x.commit], { cwd: remote, encoding: 'utf8' }).trim(),
        'sluice demo <demo@sluice.invalid>',
      );
    }
    assert.equal(d.tune.reason, 'quality_threshold_met');
    assert.deepEqual(d.tune.scores, [58.5, 67.4, 76.8]);
    assert.ok(d.tune.runDir.startsWith(join(dir, 'skill-tune-project')));
  });
});
