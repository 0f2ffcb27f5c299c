import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { DelayedError, Job, Queue, UnrecoverableError, WaitingError, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { SluiceError, type JobName, type JobPayload, type JobQueue, type JsonValue, type QueueKey } from '../../core/index.ts';
import { refuseJob } from './job-signature.ts';
import { member, releaseKey, splitMember, takeKey } from './key-order.ts';
import { connectionOptions, openClient, probeRedis, within } from './redis-connection.ts';
import { names, needsOf, PREFIX, type WireJob } from './queue-names.ts';
import { parseRedisUrl, type QueueTls } from './redis-url.ts';
import { encodeError } from './wire-error.ts';
import { announce, withdraw, type WorkerAnnouncement } from './worker-registry.ts';

export type WorkerEvent =
  | { type: 'started' | 'done' | 'handed-back' | 'waiting-for-key' | 'lease-lost' | 'discarded'; job: string; id: string; label?: string }
  | { type: 'failed' | 'refused'; job: string; id: string; label?: string; error: string }
  | { type: 'listening'; queue: string }
  | { type: 'stopping'; running: number };

export interface StartWorkerOptions {
  url: string;
  what?: string;
  /** Certificates for a `rediss://` URL (queue-settings.ts). */
  tls?: QueueTls;
  /** Verifies every job before anything of it is read or run (job-signature.ts). */
  queueKey: QueueKey;
  /** The worker's own in-process queue holding the registered handlers (`kernel.dispatcher`). */
  dispatcher: JobQueue;
  /** Delegate backends this machine can run; jobs needing others go to other workers. */
  delegates: readonly string[];
  /** Jobs this worker runs at once (default: the dispatcher's concurrency). */
  concurrency?: number;
  /** Passed to handlers as ctx.workdir. */
  workdir: string;
  /** After a stop request, how long running jobs may take to finish before they are handed back. */
  graceMs: number;
  /** How long a job's lock lasts without renewal: a killed worker's jobs move on after about this long. */
  leaseMs?: number;
  onEvent?(event: WorkerEvent): void;
}

export interface RunningWorker {
  readonly id: string;
  /** The queue URL as messages show it (no password). */
  readonly url: string;
  /** Stops taking jobs, lets running ones finish within the grace period, hands back the rest. */
  stop(): Promise<void>;
}

const BEAT_MS = 5000;

interface RunningJob {
  controller: AbortController;
  handBack: boolean;
  /** The lock ran out (or Redis said it is another's): the handler is cancelled, its result discarded. */
  lost: boolean;
  /** When BullMQ last renewed the job's lock. */
  renewedAt: number;
  show: { job: string; id: string; label?: string };
}
/** A job that is not its key's head looks again after this long (or sooner, when the head finishes). */
const KEY_RECHECK_MS = 2000;

/** Pulls jobs from Redis and runs each through the registered handler of this process. */
export async function startWorker(o: StartWorkerOptions): Promise<RunningWorker> {
  const target = parseRedisUrl(o.url, o.what, o.tls);
  await probeRedis(target);
  const connection = connectionOptions(target);
  const redis: Redis = openClient(target);
  const subscriber: Redis = openClient(target);
  const id = `${hostname()}-${process.pid}-${randomUUID().slice(0, 8)}`;
  const concurrency = o.concurrency ?? Math.max(1, o.dispatcher.stats().concurrency);
  const leaseMs = o.leaseMs ?? 30_000;
  // A dead worker's job is taken over within one lease: its lock expires (lockDuration after the last
  // renewal) and the next stalled check (at most stalledInterval later) moves it on.
  const lockDuration = Math.max(200, Math.round((leaseMs * 2) / 3));
  const stalledInterval = Math.max(100, leaseMs - lockDuration);
  const have = new Set(o.delegates);
  const workers = new Map<string, Worker>();
  const queues = new Map<string, Queue>();
  const running = new Map<string, RunningJob>();
  let stopping = false;
  const info = (): WorkerAnnouncement => ({
    id,
    host: hostname(),
    pid: process.pid,
    delegates: [...have].sort(),
    concurrency,
    startedAt,
    running: [...running.keys()],
    stopping,
  });
  const startedAt = new Date().toISOString();

  const queueOf = (name: string) => {
    let q = queues.get(name);
    if (!q) {
      q = new Queue(name, { connection, prefix: PREFIX });
      q.on('error', () => {});
      queues.set(name, q);
    }
    return q;
  };

  /** Wakes the job whose turn it is now, instead of letting it wait out its recheck delay. */
  async function wake(next: string | undefined): Promise<void> {
    if (next === undefined) return;
    const { queueName, jobId } = splitMember(next);
    const job = await Job.fromId(queueOf(queueName), jobId);
    if (job && (await job.getState()) === 'delayed') await job.promote().catch(() => {});
  }

  /** Puts a job back in the queue; `ran` counts it as an attempt (the next run resumes it). */
  async function handBack(job: Job, token: string | undefined, ran: boolean): Promise<never> {
    const wire = job.data as WireJob & { handedBack?: number };
    if (ran) await job.updateData({ ...wire, handedBack: (wire.handedBack ?? 0) + 1 });
    await job.moveToWait(token);
    throw new WaitingError();
  }

  /**
   * Listening on several queues (one per delegate set), each BullMQ worker would take `concurrency`
   * jobs: past the limit all of them pause, so jobs this one cannot start now stay free for other workers.
   */
  let taken = 0;
  function throttle(): void {
    if (workers.size < 2 || stopping) return;
    const full = taken >= concurrency;
    for (const w of workers.values()) {
      if (full && !w.isPaused()) void w.pause(true).catch(() => {});
      else if (!full && w.isPaused()) void w.resume().catch(() => {});
    }
  }

  async function processJob(job: Job, token: string | undefined, signal?: AbortSignal): Promise<unknown> {
    taken++;
    throttle();
    try {
      // Fetched by a lane just before it paused: back to the queue, for a worker with room.
      if (taken > concurrency) return await handBack(job, token, false);
      return await workJob(job, token, signal);
    } finally {
      taken--;
      throttle();
    }
  }

  async function workJob(job: Job, token: string | undefined, signal?: AbortSignal): Promise<unknown> {
    const jobId = job.id!;
    // Before anything the job says is used (its key, its payload, even its label in the log).
    const refused = refuseJob(o.queueKey, job.queueName, jobId, job.name, job.data);
    if (refused) {
      o.onEvent?.({ type: 'refused', job: job.name, id: jobId, error: `${refused.code}: ${refused.message}` });
      throw new UnrecoverableError(encodeError(refused));
    }
    const wire = job.data as WireJob & { handedBack?: number };
    const m = member(job.queueName, jobId);
    const show = { job: job.name, id: jobId, label: wire.label };
    if (stopping) return handBack(job, token, false);
    if (await redis.exists(names.cancelled(jobId))) {
      if (wire.key !== undefined) await wake(await releaseKey(redis, wire.key, m));
      throw new UnrecoverableError(encodeError(new SluiceError('QUEUE_CANCELLED', { message: `job ${job.name} was cancelled before it started` })));
    }
    // Nobody waits for a job whose orchestrator died before it started: its rerun queues it again and resumes.
    if ((await redis.exists(names.orchestrator(wire.from), names.retried(jobId))) === 0) {
      if (wire.key !== undefined) await wake(await releaseKey(redis, wire.key, m));
      const gone = new SluiceError('QUEUE_ORCHESTRATOR_GONE', {
        message: `job ${job.name}${wire.label ? ` (${wire.label})` : ''} was queued by ${wire.from}, which is gone: not started; run the command again to resume`,
      });
      o.onEvent?.({ type: 'failed', ...show, error: `${gone.code}: ${gone.message}` });
      throw new UnrecoverableError(encodeError(gone));
    }
    if (wire.key !== undefined && (await takeKey(redis, wire.key, m)) !== undefined) {
      o.onEvent?.({ type: 'waiting-for-key', ...show });
      await job.moveToDelayed(Date.now() + KEY_RECHECK_MS, token);
      throw new DelayedError();
    }
    const entry: RunningJob = { controller: new AbortController(), handBack: false, lost: false, renewedAt: Date.now(), show };
    signal?.addEventListener('abort', () => entry.controller.abort(), { once: true });
    const lockKey = `${PREFIX}:${job.queueName}:${jobId}:lock`;
    running.set(jobId, entry);
    o.onEvent?.({ type: 'started', ...show });
    try {
      const result = await o.dispatcher.run(job.name as JobName, wire.payload as JobPayload<JobName>, {
        signal: entry.controller.signal,
        label: wire.label,
        workdir: o.workdir,
        attempt: 1 + (job.stalledCounter ?? 0) + (wire.handedBack ?? 0),
        leaseHeld: async () => !lease(entry) && (await redis.get(lockKey)) === token,
        onProgress: (data: JsonValue) => void job.updateProgress(data as object).catch(() => {}),
      });
      if (lease(entry)) return discard(entry);
      if (entry.handBack) return await handBack(job, token, true);
      if (wire.key !== undefined) await wake(await releaseKey(redis, wire.key, m));
      o.onEvent?.({ type: 'done', ...show });
      return result;
    } catch (error) {
      // Another worker has the job (and its key's turn) now: nothing of this run counts, nothing is released.
      if (lease(entry)) return discard(entry);
      if (error instanceof WaitingError) {
        o.onEvent?.({ type: 'handed-back', ...show });
        throw error;
      }
      if (entry.handBack) {
        o.onEvent?.({ type: 'handed-back', ...show });
        return await handBack(job, token, true);
      }
      if (wire.key !== undefined) await wake(await releaseKey(redis, wire.key, m));
      const reason = encodeError(error);
      o.onEvent?.({ type: 'failed', ...show, error: reason.split('\n')[0] });
      throw new UnrecoverableError(reason);
    } finally {
      running.delete(jobId);
    }
  }

  function listen(queueName: string): void {
    if (stopping || workers.has(queueName) || !needsOf(queueName).every((d) => have.has(d))) return;
    const worker = new Worker(queueName, processJob, {
      connection,
      prefix: PREFIX,
      concurrency,
      name: id,
      lockDuration,
      stalledInterval,
      maxStalledCount: 3,
    });
    worker.on('error', () => {});
    worker.on('locksRenewed', ({ jobIds }: { jobIds: string[] }) => {
      for (const jobId of jobIds) {
        const entry = running.get(jobId);
        if (entry) entry.renewedAt = Date.now();
      }
    });
    worker.on('lockRenewalFailed', (jobIds: string[]) => {
      for (const jobId of jobIds) loseLease(running.get(jobId));
    });
    workers.set(queueName, worker);
    o.onEvent?.({ type: 'listening', queue: queueName });
  }

  async function discover(): Promise<void> {
    for (const q of ['jobs', ...(await redis.smembers(names.queues))]) listen(q);
  }

  await subscriber.subscribe(names.channel);
  subscriber.on('message', (_channel: string, message: string) => {
    const [verb, arg] = message.split(' ');
    if (verb === 'cancel') running.get(arg)?.controller.abort();
    else if (verb === 'queue') listen(arg);
  });
  /** The job's lease ended: its handler is cancelled (a delegate's process group is killed) and its result discarded. */
  function loseLease(entry: RunningJob | undefined): void {
    if (!entry || entry.lost) return;
    entry.lost = true;
    o.onEvent?.({ type: 'lease-lost', ...entry.show });
    entry.controller.abort();
  }
  /** Whether the lease is gone, judged by this worker's own clock too: a worker frozen past its lock cannot wait for Redis to say so. */
  function lease(entry: RunningJob): boolean {
    if (!entry.lost && Date.now() - entry.renewedAt > lockDuration) loseLease(entry);
    return entry.lost;
  }
  function discard(entry: RunningJob): never {
    o.onEvent?.({ type: 'discarded', ...entry.show });
    // BullMQ cannot move a job whose lock it no longer holds; the job goes on with the worker that has it.
    throw new Error(`lease lost: ${entry.show.job} ${entry.show.id} belongs to another worker now`);
  }
  // Looked at more often than locks are renewed (every lockDuration / 2), so a lost lease ends the work soon.
  const watchdog = setInterval(
    () => {
      for (const entry of running.values()) lease(entry);
    },
    Math.max(50, Math.round(lockDuration / 4)),
  );
  watchdog.unref();

  await discover();
  await announce(redis, info(), BEAT_MS);
  const beat = setInterval(() => {
    void announce(redis, info(), BEAT_MS).catch(() => {});
    void discover().catch(() => {});
  }, BEAT_MS);

  let stopped: Promise<void> | undefined;
  return {
    id,
    url: target.display,
    stop() {
      stopped ??= (async () => {
        stopping = true;
        o.onEvent?.({ type: 'stopping', running: running.size });
        await within(2000, Promise.all([...workers.values()].map((w) => w.pause(true).catch(() => {}))));
        await within(
          2000,
          announce(redis, info(), BEAT_MS).catch(() => {}),
        );
        await settleWithin(o.graceMs, () => running.size === 0);
        // Past the grace period: running handlers are cancelled and their jobs go back to the queue.
        for (const entry of running.values()) {
          entry.handBack = true;
          entry.controller.abort();
        }
        await settleWithin(10_000, () => running.size === 0);
        clearInterval(beat);
        clearInterval(watchdog);
        // Bounded: a worker stopping while Redis is gone must still exit.
        await within(5000, Promise.allSettled([...workers.values()].map((w) => w.close(running.size > 0))));
        await within(2000, Promise.allSettled([...queues.values()].map((q) => q.close())));
        // A close that ran out of time leaves BullMQ's clients reconnecting forever: cut them.
        await within(1000, Promise.allSettled([...workers.values(), ...queues.values()].map((x) => x.disconnect())));
        await within(
          2000,
          withdraw(redis, id).catch(() => {}),
        );
        subscriber.disconnect();
        redis.disconnect();
      })();
      return stopped;
    },
  };
}

/** Waits until `done()` holds or `ms` passed, looking every 50 ms. */
async function settleWithin(ms: number, done: () => boolean): Promise<void> {
  const until = Date.now() + ms;
  while (!done() && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
}
