import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { passingScript } from '../fixtures/lifecycle/passing-script.ts';
import { reap, spawnReaped } from '../helpers/reap-children.ts';
import { sluiceEntry } from '../helpers/run-cli.ts';
import { redisServerMissing, startRedisServer } from '../helpers/redis-server.ts';
import { gitIn, makeRepo, writeFiles } from './lifecycle-fixture.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';

// Every sluice this file starts signs and verifies jobs with the test's own queue key.
useTestQueueKey();

const IDENTITY = { GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'w@example.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'w@example.invalid' };

/** A sluice process whose output the test reads as it comes. */
function sluice(t: { after(fn: () => unknown): void }, args: string[]) {
  const child: ChildProcess = spawnReaped(process.execPath, [sluiceEntry(), ...args], {
    env: { ...process.env, ...IDENTITY, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => reap(child));
  const out = { stdout: '', stderr: '' };
  child.stdout!.on('data', (d) => (out.stdout += d));
  child.stderr!.on('data', (d) => (out.stderr += d));
  const exit = new Promise<{ code: number | null; signal: string | null }>((r) => child.once('exit', (code, signal) => r({ code, signal })));
  return { child, out, exit };
}

const until = async (ok: () => boolean) => {
  // No deadline: what fails is the file's time limit, with the outputs the assertions below print.
  while (!ok()) await new Promise((r) => setTimeout(r, 50));
};

describe('sluice lifecycle run --queue (CLI, real redis-server)', { skip: redisServerMissing() }, () => {
  it('SIGTERM of the orchestrator cancels its jobs on the worker: the running stages stop, no checkpoint is made of them, exit 143', async (t) => {
    const redis = await startRedisServer(t);
    // The implement stage would take an hour: only a cancellation ends these jobs within the test.
    const root = await makeRepo({ 'script.json': JSON.stringify(passingScript({ slow: ['implement'], delayMs: 3_600_000 })) });
    const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
    gitIn(root, 'clone', '-q', '--bare', root, remote);
    gitIn(root, 'remote', 'add', 'origin', remote);
    for (const slug of ['east', 'west']) await writeFiles(root, { [`.prizmkit/specs/${slug}/spec.md`]: `# ${slug}\n\n## Goal\n\nDo it.\n` });
    const workerHome = await mkdtemp(join(tmpdir(), 'sluice-worker-'));
    const worker = sluice(t, ['--cwd', workerHome, 'worker', '--queue', redis.url, '--concurrency', '2']);
    const run = sluice(t, ['--cwd', root, 'lifecycle', 'run', 'east', 'west', '--to', 'script', '--script', 'script.json', '--queue', redis.url, '--json']);
    const checkpoints = () => gitIn(remote, 'for-each-ref', '--format=%(refname)', 'refs/sluice/checkpoints').trim().split('\n').filter(Boolean);
    // Both planned (checkpointed) and in their hour-long implement stage.
    await until(() => checkpoints().length === 2 || run.child.exitCode !== null);
    assert.equal(run.child.exitCode, null, `the run ended early: ${run.out.stdout}${run.out.stderr}`);
    await new Promise((r) => setTimeout(r, 200));
    run.child.kill('SIGTERM');
    const ended = await run.exit;
    assert.equal(ended.code, 143, run.out.stderr);
    const summary = JSON.parse(run.out.stdout);
    assert.deepEqual(
      summary.requirements.map((r: { slug: string; outcome: string }) => [r.slug, r.outcome]),
      [
        ['east', 'interrupted'],
        ['west', 'interrupted'],
      ],
    );
    // The worker stops both jobs (they would otherwise run for an hour) and stays up for the next ones.
    await until(() => (worker.out.stdout.match(/ done lifecycle:requirement /g) ?? []).length === 2);
    assert.equal(worker.child.exitCode, null);
    for (const slug of ['east', 'west']) {
      const last = gitIn(remote, 'show', `refs/sluice/checkpoints/${slug}:.prizmkit/state/journal/${slug}.jsonl`).trim().split('\n').at(-1)!;
      assert.equal(JSON.parse(last).state.status, 'PLAN_READY', `${slug}: the cancelled implement stage left no checkpoint`);
    }
    worker.child.kill('SIGTERM');
    assert.equal((await worker.exit).code, 143);
  });
});
