import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { createLocalQueue, isSluiceError, SluiceError, type JobQueue } from '../../core/index.ts';
import { createRedisQueue, openAdmin, startWorker, type RunningWorker, type WorkerEvent } from '../../plugins/queue-redis/index.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';
import { redisServerMissing, startRedisServer, type TestRedis } from '../helpers/redis-server.ts';

const queueKey = useTestQueueKey();

declare module '../../core/queue/job-queue.ts' {
  interface Jobs {
    'test:echo': { payload: { text: string; gate?: string }; result: { text: string; attempt: number; workdir: string | null } };
    'test:fail': { payload: { why: string }; result: null };
  }
}

/** Every promise a test opens on a gate is released by the test itself: no timing decides anything. */
function gates() {
  const waiting = new Map<string, () => void>();
  const opened = new Set<string>();
  return {
    wait: (name: string) => (opened.has(name) ? Promise.resolve() : new Promise<void>((r) => waiting.set(name, r))),
    open(name: string) {
      opened.add(name);
      waiting.get(name)?.();
    },
  };
}

function handlers(q: JobQueue, log: string[], g = gates()) {
  q.register('test:echo', async ({ text, gate }, ctx) => {
    log.push(`start ${text}`);
    ctx.progress?.({ at: text });
    if (gate) await Promise.race([g.wait(gate), new Promise((_, reject) => ctx.signal.addEventListener('abort', () => reject(new Error('aborted'))))]);
    log.push(`end ${text}`);
    return { text: text.toUpperCase(), attempt: ctx.attempt ?? 0, workdir: ctx.workdir ?? null };
  });
  q.register('test:fail', async ({ why }) => {
    throw new SluiceError('CONFIG_INVALID', { file: 'sluice.config.yaml', field: 'x', message: why });
  });
  return g;
}

describe('Redis queue: orchestrator and workers', { skip: redisServerMissing() }, () => {
  const orchestrator = (redis: TestRedis) => {
    const q = createRedisQueue({ queueKey, url: redis.url });
    handlers(q, []);
    redis.beforeStop(() => q.close());
    return q;
  };
  const worker = async (
    redis: TestRedis,
    o: { log?: string[]; delegates?: string[]; g?: ReturnType<typeof gates>; events?: WorkerEvent[]; concurrency?: number; lease?: number } = {},
  ) => {
    const local = createLocalQueue({ concurrency: o.concurrency ?? 2 });
    const g = handlers(local, o.log ?? [], o.g);
    const w: RunningWorker = await startWorker({
      queueKey,
      url: redis.url,
      dispatcher: local,
      delegates: o.delegates ?? [],
      workdir: '/work/dir',
      graceMs: 0,
      ...(o.lease ? { leaseMs: o.lease } : {}),
      onEvent: (e) => o.events?.push(e),
    });
    redis.beforeStop(() => w.stop());
    return { w, g };
  };

  it('runs a job on a worker and returns its JSON result, with progress and the worker folder', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    await worker(redis);
    const progress: unknown[] = [];
    const result = await q.run('test:echo', { text: 'hi' }, { onProgress: (d) => progress.push(d) });
    assert.deepEqual(result, { text: 'HI', attempt: 1, workdir: '/work/dir' });
    assert.deepEqual(progress, [{ at: 'hi' }]);
  });

  it("a handler's SluiceError reaches the orchestrator with its code, file, field and exit code", async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    await worker(redis);
    await assert.rejects(q.run('test:fail', { why: 'bad x' }), (e: unknown) => {
      assert.ok(isSluiceError(e, 'CONFIG_INVALID'), String(e));
      assert.equal(e.file, 'sluice.config.yaml');
      assert.equal(e.field, 'x');
      assert.equal(e.detail, 'bad x');
      assert.equal(e.exitCode, 2);
      return true;
    });
  });

  it('jobs with one key run one at a time in submission order, across two workers', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    const log: string[] = [];
    const g = gates();
    await worker(redis, { log, g });
    await worker(redis, { log, g });
    const first = q.run('test:echo', { text: 'a1', gate: 'a1' }, { key: 'A' });
    const second = q.run('test:echo', { text: 'a2' }, { key: 'A' });
    const other = q.run('test:echo', { text: 'b1' }, { key: 'B' });
    // B is not held up by A's running job; A's second job waits for the first.
    await other;
    assert.ok(!log.includes('start a2'), log.join(', '));
    g.open('a1');
    await Promise.all([first, second]);
    assert.ok(log.indexOf('end a1') < log.indexOf('start a2'), log.join(', '));
  });

  it('a job that needs a delegate goes only to a worker that has it', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    const plain: string[] = [];
    const claude: string[] = [];
    await worker(redis, { log: plain, delegates: ['shell'] });
    const p = q.run('test:echo', { text: 'needs-claude' }, { needs: ['claude'] });
    const plainJob = await q.run('test:echo', { text: 'anyone' });
    assert.equal(plainJob.text, 'ANYONE');
    await worker(redis, { log: claude, delegates: ['claude', 'shell'] });
    assert.equal((await p).text, 'NEEDS-CLAUDE');
    assert.ok(claude.includes('start needs-claude'));
    assert.ok(!plain.includes('start needs-claude'));
  });

  it('a full worker leaves jobs of its other delegate queues to other workers', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    const admin = await openAdmin(redis.url);
    redis.beforeStop(() => admin.close());
    const busyLog: string[] = [];
    const g = gates();
    const busy = await worker(redis, { log: busyLog, delegates: ['claude', 'shell'], concurrency: 1, g });
    const held = q.run('test:echo', { text: 'held', gate: 'held' }, { needs: ['shell'], label: 'held' });
    while (!busyLog.includes('start held')) await new Promise((r) => setTimeout(r, 10));
    const next = q.run('test:echo', { text: 'next', gate: 'next' }, { needs: ['claude'], label: 'next' });
    // The busy worker listens on the claude queue too, but has no room: the job waits for another worker.
    const other = await worker(redis, { delegates: ['claude'], g });
    let ranOn: string | undefined;
    while (!(ranOn = (await admin.status()).running.find((j) => j.label === 'next')?.worker)) await new Promise((r) => setTimeout(r, 10));
    assert.equal(ranOn, other.w.id, `next runs on ${ranOn}, busy is ${busy.w.id}`);
    g.open('next');
    g.open('held');
    assert.equal((await next).text, 'NEXT');
    assert.equal((await held).text, 'HELD');
  });

  /** A queue that gives up on Redis at once, and a job of it running (held) on a worker. */
  const heldJobOnImpatientQueue = async (t: Parameters<typeof startRedisServer>[0]) => {
    const redis = await startRedisServer(t);
    const q = createRedisQueue({ queueKey, url: redis.url, pollMs: 50, lostAfterMs: 0 });
    handlers(q, []);
    redis.beforeStop(() => q.close());
    const log: string[] = [];
    const { w } = await worker(redis, { log });
    const run = q.run('test:echo', { text: 'held', gate: 'never' });
    while (!log.includes('start held')) await new Promise((r) => setTimeout(r, 10));
    return { redis, run, w };
  };
  const rejectsAsLost = (run: Promise<unknown>, redis: TestRedis) =>
    assert.rejects(run, (e: unknown) => {
      assert.ok(isSluiceError(e, 'QUEUE_UNREACHABLE'), String(e));
      assert.match(e.message, new RegExp(`lost the queue at ${redis.url.replace(/[/.]/g, '\\$&')}`));
      return true;
    });

  it('Redis gone for good mid-run: the caller stops with QUEUE_UNREACHABLE, and the worker still stops', async (t) => {
    const { redis, run, w } = await heldJobOnImpatientQueue(t);
    await redis.stop();
    await rejectsAsLost(run, redis);
    await w.stop();
  });

  it('Redis gone while a poll is reading a job: the caller still stops with QUEUE_UNREACHABLE', { timeout: 120_000 }, async (t) => {
    const { redis, run, w } = await heldJobOnImpatientQueue(t);
    // Writes (BullMQ's scripts) wait, PING still answers: the next poll's job check hangs as Redis goes.
    const admin = new Redis(redis.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    await admin.connect();
    await admin.call('CLIENT', 'PAUSE', '60000', 'WRITE');
    admin.disconnect();
    await new Promise((r) => setTimeout(r, 500));
    await redis.stop();
    await rejectsAsLost(run, redis);
    await w.stop();
  });

  const adminClient = async (redis: TestRedis) => {
    const c = new Redis(redis.port, '127.0.0.1', { lazyConnect: true, maxRetriesPerRequest: 0 });
    await c.connect();
    redis.beforeStop(() => c.disconnect());
    return c;
  };

  it('Redis full (maxmemory): QUEUE_OUT_OF_MEMORY with what to do, not INTERNAL', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    await q.connect();
    const c = await adminClient(redis);
    await c.call('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
    await c.call('CONFIG', 'SET', 'maxmemory', '1');
    await assert.rejects(q.run('test:echo', { text: 'x' }), (e: unknown) => {
      assert.ok(isSluiceError(e, 'QUEUE_OUT_OF_MEMORY'), String(e));
      assert.match(e.message, /is full: OOM/);
      assert.match(e.hint ?? '', /maxmemory/);
      return true;
    });
  });

  it('Redis lost its data (no persistence) mid-run: the caller gets QUEUE_DATA_LOST; the worker loses the lease and cancels the handler', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    const log: string[] = [];
    const events: WorkerEvent[] = [];
    await worker(redis, { log, events, lease: 600 });
    const run = q.run('test:echo', { text: 'held', gate: 'never' });
    while (!log.includes('start held')) await new Promise((r) => setTimeout(r, 10));
    await (await adminClient(redis)).flushall();
    await assert.rejects(run, (e: unknown) => isSluiceError(e, 'QUEUE_DATA_LOST') && /lost its data/.test(e.message));
    while (!events.some((e) => e.type === 'discarded')) await new Promise((r) => setTimeout(r, 20));
    assert.ok(events.some((e) => e.type === 'lease-lost'));
    assert.ok(!log.includes('end held'), 'the handler was cancelled, not finished');
  });

  it('a job whose orchestrator died before it started: not run, QUEUE_ORCHESTRATOR_GONE; queue retry runs it anyway; status counts cancelled apart', async (t) => {
    const redis = await startRedisServer(t);
    const q = orchestrator(redis);
    const orphan = q.run('test:echo', { text: 'orphan' }, { label: 'orphan' });
    orphan.catch(() => {});
    const c = await adminClient(redis);
    while ((await c.keys('sluice:sluice:orchestrator:*')).length === 0) await new Promise((r) => setTimeout(r, 10));
    // The orchestrator dies: its heartbeat is gone (as 15 s after a SIGKILL).
    await q.close();
    await c.del(...(await c.keys('sluice:sluice:orchestrator:*')));
    const log: string[] = [];
    const events: WorkerEvent[] = [];
    await worker(redis, { log, events });
    while (!events.some((e) => e.type === 'failed')) await new Promise((r) => setTimeout(r, 20));
    assert.match((events.find((e) => e.type === 'failed') as { error: string }).error, /^QUEUE_ORCHESTRATOR_GONE: .*run the command again/);
    assert.ok(!log.includes('start orphan'));
    const admin = await openAdmin(redis.url);
    redis.beforeStop(() => admin.close());
    assert.equal((await admin.retry()).length, 1);
    while (!log.includes('end orphan')) await new Promise((r) => setTimeout(r, 20));

    // A cancelled job is counted as cancelled, not completed.
    const q2 = orchestrator(redis);
    const stop = new AbortController();
    const held = q2.run('test:echo', { text: 'held', gate: 'never' }, { signal: stop.signal });
    while (!log.includes('start held')) await new Promise((r) => setTimeout(r, 10));
    stop.abort();
    await assert.rejects(held);
    let status = await admin.status();
    while (status.counts.running > 0) status = await admin.status();
    assert.deepEqual(
      { completed: status.counts.completed, cancelled: status.counts.cancelled, failed: status.counts.failed },
      { completed: 1, cancelled: 1, failed: 0 },
    );
  });

  it('Redis unreachable: QUEUE_UNREACHABLE (exit 2) naming the URL', async () => {
    const q = createRedisQueue({ queueKey, url: 'redis://127.0.0.1:1/0' });
    handlers(q, []);
    await assert.rejects(q.run('test:echo', { text: 'x' }), (e: unknown) => {
      assert.ok(isSluiceError(e, 'QUEUE_UNREACHABLE'));
      assert.equal(e.exitCode, 2);
      assert.match(e.message, /redis:\/\/127\.0\.0\.1:1\/0/);
      return true;
    });
    await q.close();
  });

  const ciUrl = process.env.SLUICE_TEST_REDIS_URL;
  it('the Redis server .ci/run started (SLUICE_TEST_REDIS_URL) works a job', {
    skip: ciUrl ? false : 'SLUICE_TEST_REDIS_URL is not set (.ci/run sets it)',
  }, async (t) => {
    const q = createRedisQueue({ queueKey, url: ciUrl! });
    handlers(q, []);
    const local = createLocalQueue({ concurrency: 1 });
    handlers(local, []);
    const w = await startWorker({ queueKey, url: ciUrl!, dispatcher: local, delegates: [], workdir: '/ci', graceMs: 0 });
    t.after(async () => {
      await w.stop();
      await q.close();
    });
    assert.deepEqual(await q.run('test:echo', { text: 'ci' }), { text: 'CI', attempt: 1, workdir: '/ci' });
  });
});
