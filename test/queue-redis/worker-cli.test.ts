import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { childOutput } from '../helpers/child-output.ts';
import { QueueDrainOutput, QueueRetryOutput, QueueStatusOutput } from '../../plugins/queue-redis/queue-outputs.ts';
import { reap, spawnReaped } from '../helpers/reap-children.ts';
import { freePort, redisServerMissing, startRedisServer, type TestRedis } from '../helpers/redis-server.ts';
import { startWorkerProcess, type WorkerProcess } from '../helpers/sluice-worker.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { sluiceBundle } from '../sdlc/sluice-cli.ts';
import { acmeDurablePlugin } from './acme-durable-plugin.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';

// Every sluice this file starts signs and verifies jobs with the test's own queue key.
useTestQueueKey();

type TestContext = { after(fn: () => unknown): void };

/** The error line of a failed command (a warning may come first). */
const errorLine = (stderr: string) => stderr.split('\n').find((l) => l.startsWith('error ')) ?? '';

/** A trusted project whose plugin dispatches `acme:work` jobs; its workers and orchestrators share it. */
async function project(t: TestContext) {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-queue-'));
  t.after(() => rm(dir, { recursive: true, force: true }));
  await writeFile(join(dir, 'acme.mjs'), acmeDurablePlugin);
  await writeFile(join(dir, 'sluice.config.yaml'), 'plugins: [./acme.mjs]\n');
  return { dir, env: await trustedEnv(dir), bin: await sluiceBundle() };
}

type Project = Awaited<ReturnType<typeof project>>;

/** Runs a sluice command line; `done` resolves when it exits (the process is reaped at teardown). */
function sluice(t: TestContext, p: Project, args: string[]) {
  const child = spawnReaped(process.execPath, [p.bin, ...args], {
    cwd: p.dir,
    env: { ...process.env, NO_COLOR: '1', ...p.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => reap(child));
  return { child, done: childOutput(child) };
}

const log = (p: Project) => (existsSync(join(p.dir, 'work.log')) ? readFileSync(join(p.dir, 'work.log'), 'utf8').trim().split('\n') : []);

/** Waits (polling the file, no clock in any assertion) until work.log has a line matching `re`. */
async function logged(p: Project, re: RegExp): Promise<void> {
  while (!log(p).some((l) => re.test(l))) await new Promise((r) => setTimeout(r, 20));
}

function worker(t: TestContext, p: Project, redis: TestRedis, args: string[] = []): WorkerProcess {
  const w = startWorkerProcess({ after: (fn) => redis.beforeStop(fn) }, { bin: p.bin, cwd: p.dir, url: redis.url, args, env: p.env });
  t.after(() => reap(w.child));
  return w;
}

/** The opening of most cases: a Redis server, a project, and one worker (started with `workerArgs`) ready for jobs. */
async function readyWorker(t: TestContext, workerArgs: string[] = []) {
  const redis = await startRedisServer(t);
  const p = await project(t);
  const w = worker(t, p, redis, workerArgs);
  await w.ready;
  return { redis, p, w };
}

/** `acme-run` holds an item named by `--hold` until the project has a `release` file. */
const release = (p: Project) => writeFile(join(p.dir, 'release'), '');

/** The JSON document a run that must succeed printed. */
async function succeeded(run: ReturnType<typeof sluice>) {
  const r = await run.done;
  assert.equal(r.code, 0, r.stderr);
  return JSON.parse(r.stdout);
}

/** The items of a run's job results, in the order the run lists them. */
const itemsOf = (doc: { results: { item: string }[] }) => doc.results.map((r) => r.item);

describe('sluice worker and --queue through the CLI', { skip: redisServerMissing() }, () => {
  it('two worker processes work the jobs; without --queue the same command works them in-process', async (t) => {
    const redis = await startRedisServer(t);
    const p = await project(t);
    const workers = [worker(t, p, redis, ['--concurrency', '2']), worker(t, p, redis, ['--concurrency', '2'])];
    await Promise.all(workers.map((w) => w.ready));
    const items = ['a', 'b', 'c', 'd', 'e', 'f'];
    const doc = await succeeded(sluice(t, p, ['acme-run', ...items, '--queue', redis.url, '--json']));
    assert.equal(doc.kind, 'redis');
    assert.deepEqual(itemsOf(doc), items);
    const workerPids = workers.map((w) => w.child.pid);
    for (const r of doc.results) {
      assert.ok(workerPids.includes(r.pid), `job ${r.item} ran in ${r.pid}, not a worker`);
      assert.equal(r.attempt, 1);
      assert.equal(r.workdir, join(p.dir, '.sluice', 'worker'));
    }
    assert.deepEqual(doc.progress.map((x: { item: string }) => x.item).sort(), items, 'progress reached the orchestrator');
    // Each item worked exactly once.
    assert.deepEqual(
      log(p)
        .filter((l) => l.startsWith('end '))
        .map((l) => l.split(' ')[1])
        .sort(),
      items,
    );

    const localDoc = await succeeded(sluice(t, p, ['acme-run', ...items, '--json']));
    assert.equal(localDoc.kind, 'local');
    assert.deepEqual(itemsOf(localDoc), items);
    for (const r of localDoc.results) assert.ok(!workerPids.includes(r.pid));
  });

  it('SIGTERM: the worker takes no new job and lets a running one finish within its grace period', async (t) => {
    const { redis, p, w } = await readyWorker(t, ['--grace', '600']);
    const run = sluice(t, p, ['acme-run', 'h', '--hold', 'h', '--queue', redis.url, '--json']);
    await logged(p, /^start h /);
    w.child.kill('SIGTERM');
    await w.printed(/stopping: 1 running job/);
    await release(p);
    assert.equal((await succeeded(run)).results[0].pid, w.child.pid);
    assert.equal(await w.exited, 143);
    assert.match(w.stdout(), /stopped: 1 done, 0 failed, 0 handed back/);
  });

  it('SIGTERM past the grace period hands the running job back; another worker resumes it (attempt 2)', async (t) => {
    const { redis, p, w: first } = await readyWorker(t, ['--grace', '0']);
    const run = sluice(t, p, ['acme-run', 'h', '--hold', 'h', '--queue', redis.url, '--json']);
    await logged(p, new RegExp(`^start h ${first.child.pid} 1$`));
    first.child.kill('SIGTERM');
    assert.equal(await first.exited, 143);
    assert.match(first.stdout(), /handed-back acme:work h/);
    await release(p);
    const second = worker(t, p, redis);
    const result = (await succeeded(run)).results[0];
    assert.equal(result.pid, second.child.pid);
    assert.equal(result.attempt, 2);
    assert.deepEqual(log(p), [`start h ${first.child.pid} 1`, `abort h ${first.child.pid}`, `start h ${second.child.pid} 2`, `end h ${second.child.pid}`]);
  });

  it('a SIGKILLed worker: its job is taken over by another worker once its lease runs out', async (t) => {
    const { redis, p, w: dead } = await readyWorker(t, ['--lease', '1']);
    const run = sluice(t, p, ['acme-run', 'k', '--hold', 'k', '--queue', redis.url, '--json']);
    await logged(p, /^start k /);
    dead.child.kill('SIGKILL');
    await dead.exited;
    await release(p);
    const heir = worker(t, p, redis, ['--lease', '1']);
    const result = (await succeeded(run)).results[0];
    assert.equal(result.pid, heir.child.pid);
    assert.equal(result.attempt, 2);
    assert.equal(log(p).filter((l) => l.startsWith('end k')).length, 1, 'worked to the end once');
  });

  it('Redis restarted mid-run (append-only file on): nothing is lost, every job finishes', async (t) => {
    const { redis, p, w } = await readyWorker(t, ['--concurrency', '3']);
    const run = sluice(t, p, ['acme-run', 'x', 'h', 'y', '--hold', 'h', '--queue', redis.url, '--json']);
    await logged(p, /^start h /);
    await redis.restart();
    await release(p);
    assert.deepEqual(itemsOf(await succeeded(run)), ['x', 'h', 'y']);
  });

  it('SIGTERM to the orchestrator cancels its jobs: a waiting one leaves the queue, a running handler is aborted', async (t) => {
    const { redis, p, w } = await readyWorker(t, ['--delegates', 'script']);
    const run = sluice(t, p, ['acme-run', 'h', 'z', '--hold', 'h', '--needs', 'script', '--queue', redis.url]);
    const waiting = sluice(t, p, ['acme-run', 'q', '--needs', 'claude', '--queue', redis.url]);
    await logged(p, /^start h /);
    let counts: { waiting: number; running: number };
    do counts = JSON.parse((await sluice(t, p, ['queue', 'status', '--queue', redis.url, '--json']).done).stdout).counts;
    while (counts.waiting === 0);
    run.child.kill('SIGTERM');
    waiting.child.kill('SIGTERM');
    assert.equal((await run.done).code, 143);
    assert.equal((await waiting.done).code, 143);
    await logged(p, new RegExp(`^abort h ${w.child.pid}$`));
    const after = JSON.parse((await sluice(t, p, ['queue', 'status', '--queue', redis.url, '--json']).done).stdout);
    assert.equal(after.counts.waiting + after.counts.delayed, 0, 'the waiting job was removed');
    assert.ok(!log(p).some((l) => l.startsWith('start q')));
  });

  it('status names the workers and a job no worker can take; drain cancels it and its caller exits 1', async (t) => {
    const { redis, p, w } = await readyWorker(t, ['--delegates', 'script']);
    const run = sluice(t, p, ['acme-run', 'z', '--needs', 'claude', '--queue', redis.url]);
    let status: { counts: { waiting: number }; workers: { pid: number; delegates: string[] }[]; unserved: { needs: string[] }[] };
    do {
      const s = await sluice(t, p, ['queue', 'status', '--queue', redis.url, '--json']).done;
      assert.equal(s.code, 0, s.stderr);
      status = v.parse(QueueStatusOutput, JSON.parse(s.stdout));
    } while (status.counts.waiting === 0);
    assert.deepEqual(
      status.workers.map((x) => [x.pid, x.delegates]),
      [[w.child.pid, ['script']]],
    );
    assert.deepEqual(status.unserved, [{ needs: ['claude'] }]);
    const drained = await sluice(t, p, ['queue', 'drain', '--queue', redis.url, '--json']).done;
    assert.equal(drained.code, 0, drained.stderr);
    assert.equal(v.parse(QueueDrainOutput, JSON.parse(drained.stdout)).removed[0].label, 'z');
    const r = await run.done;
    assert.equal(r.code, 1);
    assert.match(r.stderr, /QUEUE_CANCELLED: .*removed from the queue/);
  });

  it('a failed job fails its caller like in-process; queue retry runs it again', async (t) => {
    const { redis, p, w } = await readyWorker(t);
    await writeFile(join(p.dir, 'fail-f'), '');
    const local = await sluice(t, p, ['acme-run', 'f']).done;
    const remote = await sluice(t, p, ['acme-run', 'f', '--queue', redis.url]).done;
    assert.notEqual(local.code, 0);
    assert.equal(remote.code, local.code);
    assert.equal(errorLine(remote.stderr).replace(/^error (\w+):.*$/, '$1'), errorLine(local.stderr).replace(/^error (\w+):.*$/, '$1'));
    assert.match(remote.stderr, /item f cannot be worked/);
    const failed = v.parse(QueueStatusOutput, JSON.parse((await sluice(t, p, ['queue', 'status', '--queue', redis.url, '--json']).done).stdout));
    assert.equal(failed.counts.failed, 1);
    assert.match(failed.failed[0].reason ?? '', /item f cannot be worked/);
    await rm(join(p.dir, 'fail-f'));
    const retried = await sluice(t, p, ['queue', 'retry', '--queue', redis.url, '--json']).done;
    const back = v.parse(QueueRetryOutput, JSON.parse(retried.stdout)).retried;
    assert.deepEqual(
      back.map((j) => [j.id, j.job]),
      [[failed.failed[0].id, failed.failed[0].job]],
      'retry lists the job it put back, as the object status showed',
    );
    await logged(p, /^end f /);
  });

  it('queue: in sluice.config.yaml selects the Redis queue like --queue; the flag wins; a bad value names the field', async (t) => {
    const redis = await startRedisServer(t);
    const p = await project(t);
    await writeFile(join(p.dir, 'sluice.config.yaml'), `plugins: [./acme.mjs]\nqueue: ${redis.url}\n`);
    const configured = { ...p, env: await trustedEnv(p.dir) };
    const w = worker(t, configured, redis);
    await w.ready;
    const doc = await succeeded(sluice(t, configured, ['acme-run', 'c', '--json']));
    assert.equal(doc.kind, 'redis');
    assert.equal(doc.results[0].pid, w.child.pid);
    const unreachable = `redis://127.0.0.1:${await freePort()}/0`;
    const flag = await sluice(t, configured, ['acme-run', 'c', '--queue', unreachable]).done;
    assert.equal(flag.code, 2);
    assert.match(flag.stderr, /QUEUE_UNREACHABLE: cannot reach the queue at redis:\/\/127\.0\.0\.1:\d+\/0/);
    await writeFile(join(p.dir, 'sluice.config.yaml'), 'plugins: [./acme.mjs]\nqueue: http://elsewhere\n');
    const bad = await sluice(t, p, ['acme-run', 'c', '--json']).done;
    assert.equal(bad.code, 2);
    const error = JSON.parse(bad.stdout).error;
    assert.equal(error.code, 'CONFIG_INVALID');
    assert.equal(error.field, 'queue');
  });

  it('Redis unreachable: exit 2 naming the URL, for a dispatching command and for a worker', async (t) => {
    const p = await project(t);
    const url = `redis://127.0.0.1:${await freePort()}/0`;
    for (const args of [
      ['acme-run', 'a', '--queue', url],
      ['worker', '--queue', url],
    ]) {
      const r = await sluice(t, p, args).done;
      assert.equal(r.code, 2, r.stderr);
      assert.match(errorLine(r.stderr), new RegExp(`^error QUEUE_UNREACHABLE: cannot reach the queue at ${url.replace(/[/.]/g, '\\$&')}`));
      // A loopback Redis without a password: one warning, said once.
      assert.equal((r.stderr.match(/warning: the queue \S+ has no password/g) ?? []).length, 1, r.stderr);
    }
  });
});
