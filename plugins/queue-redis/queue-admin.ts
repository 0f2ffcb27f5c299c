import { Job, Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { releaseKey, member } from './key-order.ts';
import { connectionOptions, openClient, probeRedis } from './redis-connection.ts';
import { names, needsOf, PREFIX, type WireJob } from './queue-names.ts';
import { parseRedisUrl, type QueueTls, type RedisTarget } from './redis-url.ts';
import { errorCodeOf, firstLine } from './wire-error.ts';
import { listWorkers, type WorkerAnnouncement } from './worker-registry.ts';

export interface QueuedJobView {
  id: string;
  queue: string;
  job: string;
  label?: string;
  key?: string;
  needs: string[];
  /** For running jobs: the worker that holds it. */
  worker?: string;
  /** For failed jobs: the error's first line. */
  reason?: string;
}

export interface QueueStatus {
  url: string;
  /** `cancelled`: jobs their run cancelled (counted apart from the completed and the failed ones). */
  counts: { waiting: number; running: number; delayed: number; completed: number; cancelled: number; failed: number };
  workers: (Omit<WorkerAnnouncement, 'running'> & { running: { id: string }[] })[];
  running: QueuedJobView[];
  failed: QueuedJobView[];
  /** Needs of waiting jobs that no live worker can serve. */
  unserved: { needs: string[] }[];
}

/** Operator access to the queue: one connection, every sluice queue name it knows. */
export async function openAdmin(url: string, what?: string, tls?: QueueTls) {
  const target: RedisTarget = parseRedisUrl(url, what, tls);
  await probeRedis(target);
  const redis: Redis = openClient(target);
  const connection = connectionOptions(target);
  const queues = new Map<string, Queue>();
  const all = async () => {
    for (const name of ['jobs', ...(await redis.smembers(names.queues))].sort()) {
      if (!queues.has(name)) {
        const q = new Queue(name, { connection, prefix: PREFIX });
        q.on('error', () => {});
        queues.set(name, q);
      }
    }
    return [...queues.values()];
  };
  const view = (job: Job, reason?: string): QueuedJobView => {
    const wire = job.data as WireJob;
    return {
      id: job.id!,
      queue: job.queueName,
      job: job.name,
      ...(wire.label === undefined ? {} : { label: wire.label }),
      ...(wire.key === undefined ? {} : { key: wire.key }),
      needs: wire.needs ?? [],
      ...(job.processedBy ? { worker: job.processedBy } : {}),
      ...(reason === undefined ? {} : { reason }),
    };
  };

  return {
    target,
    async status(): Promise<QueueStatus> {
      const counts = { waiting: 0, running: 0, delayed: 0, completed: 0, cancelled: 0, failed: 0 };
      const running: QueuedJobView[] = [];
      const failed: QueuedJobView[] = [];
      const workers = await listWorkers(redis);
      const unserved: { needs: string[] }[] = [];
      for (const q of await all()) {
        const c = await q.getJobCounts('waiting', 'prioritized', 'active', 'delayed', 'completed', 'failed');
        counts.waiting += (c.waiting ?? 0) + (c.prioritized ?? 0);
        counts.running += c.active ?? 0;
        counts.delayed += c.delayed ?? 0;
        // A cancelled job either ended as its handler decided (completed) or before it started (failed
        // QUEUE_CANCELLED): both are counted as cancelled, by the mark the orchestrator's cancel left.
        const completed = (await q.getCompleted()).map((j) => j.id!);
        const marked = completed.length === 0 ? [] : await redis.mget(completed.map((id) => names.cancelled(id)));
        const cancelledDone = marked.filter((m) => m !== null).length;
        counts.completed += (c.completed ?? 0) - cancelledDone;
        counts.cancelled += cancelledDone;
        for (const j of await q.getActive()) running.push(view(j));
        for (const j of await q.getFailed()) {
          if (errorCodeOf(j.failedReason) === 'QUEUE_CANCELLED') counts.cancelled++;
          else {
            counts.failed++;
            failed.push(view(j, firstLine(j.failedReason)));
          }
        }
        const needs = needsOf(q.name);
        const waiting = (c.waiting ?? 0) + (c.prioritized ?? 0) + (c.delayed ?? 0);
        if (waiting > 0 && !workers.some((w) => needs.every((d) => w.delegates.includes(d)))) unserved.push({ needs });
      }
      const shown = workers.map((w) => ({ ...w, running: w.running.map((id) => ({ id })) }));
      return { url: target.display, counts, workers: shown, running, failed, unserved };
    },
    /** Puts failed jobs (all, or those ids) back in the queue; returns the ids retried. */
    async retry(ids?: readonly string[]): Promise<QueuedJobView[]> {
      const done: QueuedJobView[] = [];
      for (const q of await all()) {
        for (const j of await q.getFailed()) {
          if (ids && ids.length > 0 && !ids.includes(j.id!)) continue;
          const failedAs = view(j, j.failedReason);
          // Retried by a person: it runs even though the run that queued it is gone.
          await redis.set(names.retried(j.id!), '1', 'EX', 7 * 24 * 3600);
          await j.retry('failed');
          done.push(failedAs);
        }
      }
      return done;
    },
    /** Removes every job not yet running (waiting, delayed); running jobs finish. Returns the removed. */
    async drain(): Promise<QueuedJobView[]> {
      const removed: QueuedJobView[] = [];
      for (const q of await all()) {
        for (const j of await q.getJobs(['waiting', 'prioritized', 'delayed'])) {
          if (!j?.id) continue;
          const wire = j.data as WireJob;
          try {
            await j.remove();
          } catch {
            continue; // taken by a worker meanwhile: it runs
          }
          if (wire.key !== undefined) await releaseKey(redis, wire.key, member(q.name, j.id));
          removed.push(view(j));
        }
      }
      return removed;
    },
    async close(): Promise<void> {
      await Promise.allSettled([...queues.values()].map((q) => q.close()));
      redis.disconnect();
    },
  };
}
