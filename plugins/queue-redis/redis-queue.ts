import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import {
  SluiceError,
  assertJsonPayload,
  createKeyedMutex,
  type JobHandler,
  type JobName,
  type JobOptions,
  type JobPayload,
  type JobQueue,
  type JobResult,
  type JsonValue,
  type QueueKey,
  type QueueProgressEvent,
  type QueueStats,
} from '../../core/index.ts';
import { signJob } from './job-signature.ts';
import { dataLost, ORCHESTRATOR_BEAT_MS, redisFault } from './redis-fault.ts';
import { enqueueKey, member, releaseKey } from './key-order.ts';
import { connectionOptions, openClient, probeRedis, within } from './redis-connection.ts';
import { names, PREFIX, queueNameFor } from './queue-names.ts';
import { parseRedisUrl, type QueueTls, type RedisTarget } from './redis-url.ts';
import { decodeError } from './wire-error.ts';

export interface RedisQueueOptions {
  /** `redis://HOST:PORT[/DB]`. */
  url: string;
  /** Where the URL came from, for errors (`--queue`, `sluice.config.yaml field queue`). */
  what?: string;
  /** Certificates for a `rediss://` URL (queue-settings.ts). */
  tls?: QueueTls;
  /** Signs every job (workers refuse unsigned ones): the key, or how to read it when the queue connects. */
  queueKey: QueueKey | (() => Promise<QueueKey>);
  onProgress?(event: QueueProgressEvent): void;
  /** How often unfinished jobs are re-read in case an event was missed (Redis restarted); default 2000 ms. */
  pollMs?: number;
  /** How long Redis may stay away mid-run before the callers get QUEUE_UNREACHABLE; default 60 s. */
  lostAfterMs?: number;
}

export interface RedisJobQueue extends JobQueue {
  readonly kind: 'redis';
  readonly target: RedisTarget;
  /** Connects now (else the first `run` does); QUEUE_UNREACHABLE within 5 s when Redis does not answer. */
  connect(): Promise<void>;
  close(): Promise<void>;
}

interface Pending {
  id: string;
  name: string;
  label?: string;
  key?: string;
  queueName: string;
  added: boolean;
  started: boolean;
  cancelled: boolean;
  onProgress?(data: JsonValue): void;
  resolve(value: unknown): void;
  reject(error: unknown): void;
}

interface Lane {
  queue: Queue;
  events: QueueEvents;
}

/**
 * The orchestrator's side of the Redis queue: `run` adds a BullMQ job and resolves with the result a
 * `sluice worker` returns. Handlers registered here run only on workers (register them in both).
 */
export function createRedisQueue(options: RedisQueueOptions): RedisJobQueue {
  const target = parseRedisUrl(options.url, options.what, options.tls);
  const handlers = new Map<string, string>();
  const pending = new Map<string, Pending>();
  const lanes = new Map<string, Promise<Lane>>();
  const local = createKeyedMutex();
  const counts = { done: 0, failed: 0 };
  let client: Redis | undefined;
  let connecting: Promise<Redis> | undefined;
  let poller: NodeJS.Timeout | undefined;
  let key: QueueKey | undefined;
  let epoch: string | null = null;
  // Who queued the jobs, as workers see it (signed with each job): its heartbeat says it still waits for them.
  const from = `${hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  const beat = (redis: Redis) => redis.set(names.orchestrator(from), '1', 'PX', ORCHESTRATOR_BEAT_MS);
  let idle: (() => void)[] = [];

  const stats = (): QueueStats => {
    let running = 0;
    for (const p of pending.values()) if (p.started) running++;
    return { concurrency: 0, queued: pending.size - running, running, done: counts.done, failed: counts.failed };
  };
  const emit = (p: Pending, state: QueueProgressEvent['state']) => options.onProgress?.({ job: p.name, id: p.id, label: p.label, state, stats: stats() });

  function connect(): Promise<Redis> {
    connecting ??= (async () => {
      key = typeof options.queueKey === 'function' ? await options.queueKey() : options.queueKey;
      await probeRedis(target);
      client = openClient(target);
      try {
        await client.set(names.epoch, randomUUID(), 'NX');
        epoch = await client.get(names.epoch);
        await beat(client);
      } catch (error) {
        throw redisFault(error, target);
      }
      poller = setInterval(() => void pollAll(), options.pollMs ?? 2000);
      poller.unref();
      return client;
    })();
    return connecting;
  }

  function lane(queueName: string): Promise<Lane> {
    let found = lanes.get(queueName);
    if (!found) {
      found = (async () => {
        const redis = await connect();
        const connection = connectionOptions(target);
        const queue = new Queue(queueName, { connection, prefix: PREFIX });
        const events = new QueueEvents(queueName, { connection, prefix: PREFIX });
        queue.on('error', () => {});
        events.on('error', () => {});
        events.on('active', ({ jobId }) => void check(jobId));
        // The events carry the outcome: no read back (that cost two round trips per job).
        events.on('completed', ({ jobId, returnvalue }) => {
          const p = pending.get(jobId);
          if (p?.added) settle(p, { value: returnvalue });
        });
        events.on('failed', ({ jobId, failedReason }) => {
          const p = pending.get(jobId);
          if (p?.added) settle(p, { error: p.cancelled ? cancelled(p) : decodeError(failedReason) });
        });
        events.on('removed', ({ jobId }) => void check(jobId));
        events.on('progress', ({ jobId, data }) => pending.get(jobId)?.onProgress?.(data as JsonValue));
        try {
          await events.waitUntilReady();
          // Workers listen on every queue in this set (those with the delegates it needs).
          if ((await redis.sadd(names.queues, queueName)) === 1) await redis.publish(names.channel, `queue ${queueName}`);
        } catch (error) {
          // A lane that could not open (a full Redis) is closed, not left holding connections (the
          // process would never exit), and the next job tries again.
          lanes.delete(queueName);
          await within(2000, Promise.allSettled([events.close(), queue.close()]));
          await within(1000, Promise.allSettled([events.disconnect(), queue.disconnect()]));
          throw error;
        }
        return { queue, events };
      })();
      lanes.set(queueName, found);
    }
    return found;
  }

  function settle(p: Pending, outcome: { value: unknown } | { error: unknown }): void {
    if (!pending.delete(p.id)) return;
    if ('value' in outcome) {
      counts.done++;
      emit(p, 'done');
      p.resolve(outcome.value);
    } else {
      const error = outcome.error;
      if (p.cancelled || (error instanceof SluiceError && error.code === 'QUEUE_CANCELLED')) emit(p, 'cancelled');
      else {
        counts.failed++;
        emit(p, 'failed');
      }
      p.reject(error);
    }
    if (pending.size === 0) for (const wake of idle.splice(0)) wake();
  }

  /** Reads the job's state and settles the caller when it finished (events only say "look now"). */
  async function check(jobId: string): Promise<void> {
    const p = pending.get(jobId);
    if (!p || !p.added) return;
    try {
      const { queue } = await lane(p.queueName);
      // State first: a job read before its state could be one that finished in between, without its result.
      const state = await queue.getJobState(jobId);
      const job = state === 'unknown' ? undefined : await Job.fromId(queue, jobId);
      if (!job) {
        if (client && (await client.get(names.epoch)) !== epoch)
          return settle(p, { error: dataLost(target, `job ${p.name}${p.label ? ` (${p.label})` : ''}`) });
        if (p.key !== undefined && client) await releaseKey(client, p.key, member(p.queueName, jobId));
        settle(p, { error: cancelled(p, 'it was removed from the queue (sluice queue drain?)') });
        return;
      }
      if (state === 'completed') settle(p, { value: job.returnvalue });
      else if (state === 'failed') settle(p, { error: p.cancelled ? cancelled(p) : decodeError(job.failedReason) });
      else if (state === 'active' && !p.started) {
        p.started = true;
        emit(p, 'started');
      }
    } catch {
      // Redis away for a moment: the next poll looks again.
    }
  }

  let lastContact = Date.now();
  let polling = false;
  /** Re-reads unfinished jobs; when Redis stays away too long, the callers stop waiting (their jobs stay queued). */
  async function pollAll(): Promise<void> {
    if (polling) return;
    polling = true;
    try {
      const alive =
        pending.size === 0 ||
        (await within(
          1000,
          client!.ping().then(
            () => true,
            () => false,
          ),
        ));
      if (alive) {
        lastContact = Date.now();
        await within(
          1000,
          beat(client!).catch(() => {}),
        );
        // Bounded: Redis gone between the ping and a check leaves that check's commands queued in
        // ioredis until it reconnects, possibly never, and this poll (the only one: see `polling`)
        // would never end, so the callers would never hear that the queue was lost.
        for (const id of [...pending.keys()]) await within(5000, check(id));
      } else if (Date.now() - lastContact > (options.lostAfterMs ?? 60_000)) {
        const lost = new SluiceError('QUEUE_UNREACHABLE', {
          message: `lost the queue at ${target.display} for over ${Math.round((options.lostAfterMs ?? 60_000) / 1000)} s (its jobs stay queued); run the command again to resume`,
        });
        for (const p of [...pending.values()]) settle(p, { error: lost });
      }
    } finally {
      polling = false;
    }
  }

  async function cancel(p: Pending): Promise<void> {
    p.cancelled = true;
    const redis = await connect();
    // A worker that takes the job later (after a hand-back) sees this and does not start it.
    await redis.set(names.cancelled(p.id), '1', 'EX', 7 * 24 * 3600);
    const { queue } = await lane(p.queueName);
    const job = await Job.fromId(queue, p.id);
    const state = job ? await job.getState() : 'unknown';
    if (job && state !== 'active' && state !== 'completed' && state !== 'failed') {
      try {
        await job.remove();
      } catch {
        // Became active meanwhile: the worker is told below.
      }
    }
    // A running handler owns its signal and decides what cancellation returns (as in-process).
    await redis.publish(names.channel, `cancel ${p.id}`);
    await check(p.id);
  }

  async function dispatch<N extends JobName>(name: N, payload: JobPayload<N>, o: JobOptions): Promise<JobResult<N>> {
    if (!handlers.has(name)) throw new SluiceError('JOB_UNKNOWN', { message: `no handler registered for job ${name}` });
    if (o.signal?.aborted) throw new SluiceError('QUEUE_CANCELLED', { message: `job ${name} was cancelled` });
    const redis = await connect();
    const needs = o.needs === undefined ? [] : [...new Set(o.needs)].sort();
    const queueName = queueNameFor(needs);
    const { queue } = await lane(queueName);
    const id = randomUUID();
    const wire = signJob(key!, queueName, id, name, { payload, key: o.key, label: o.label, needs, from });
    const result = new Promise<unknown>((resolve, reject) => {
      const p: Pending = {
        id,
        name,
        label: o.label,
        key: o.key,
        queueName,
        added: false,
        started: false,
        cancelled: false,
        onProgress: o.onProgress,
        resolve,
        reject,
      };
      pending.set(id, p);
    });
    const p = pending.get(id)!;
    const onAbort = () => void cancel(p).catch(() => {});
    try {
      if (o.key !== undefined) await enqueueKey(redis, o.key, member(queueName, id));
      await queue.add(name, wire, {
        jobId: id,
        ...(o.priority ? { priority: Math.min(Math.max(1000 - o.priority, 1), 2_000_000) } : {}),
        attempts: 1,
        removeOnComplete: { age: 24 * 3600 },
        removeOnFail: false,
      });
      p.added = true;
      emit(p, 'queued');
      o.signal?.addEventListener('abort', onAbort, { once: true });
      if (o.signal?.aborted) onAbort();
      return (await result) as JobResult<N>;
    } catch (error) {
      if (!p.added) pending.delete(id);
      throw error;
    } finally {
      o.signal?.removeEventListener('abort', onAbort);
    }
  }

  return {
    kind: 'redis',
    target,
    register(name, _handler: JobHandler<JobName>, owner = 'core') {
      const existing = handlers.get(name);
      if (existing !== undefined) throw new SluiceError('PLUGIN_DUPLICATE', { plugin: owner, message: `job ${name} is already registered by ${existing}` });
      handlers.set(name, owner);
    },
    has: (name) => handlers.has(name),
    jobNames: () => [...handlers.keys()].sort(),
    run(name, payload, o = {}) {
      assertJsonPayload(name, payload);
      return dispatch(name, payload, o).catch((error: unknown) => {
        throw redisFault(error, target);
      });
    },
    // Within this process only: across machines the key order of `run` is what holds.
    exclusive: (key, fn) => local.run(key, fn),
    // Workers decide how many jobs run at once (`sluice worker --concurrency`).
    setConcurrency() {},
    stats,
    onIdle: () => (pending.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => idle.push(resolve))),
    async connect() {
      await connect();
    },
    async close() {
      if (poller) clearInterval(poller);
      const opened = await Promise.allSettled([...lanes.values()]);
      lanes.clear();
      // Bounded: closing connections to a Redis that is gone must not hang the command's exit.
      for (const o of opened) if (o.status === 'fulfilled') await within(2000, Promise.allSettled([o.value.events.close(), o.value.queue.close()]));
      // A close that ran out of time leaves BullMQ's clients reconnecting forever: cut them.
      for (const o of opened) if (o.status === 'fulfilled') await within(1000, Promise.allSettled([o.value.events.disconnect(), o.value.queue.disconnect()]));
      client?.disconnect();
      idle = [];
    },
  };
}

function cancelled(p: Pending, why = 'its run was cancelled'): SluiceError {
  return new SluiceError('QUEUE_CANCELLED', { message: `job ${p.name}${p.label ? ` (${p.label})` : ''} was cancelled: ${why}` });
}
