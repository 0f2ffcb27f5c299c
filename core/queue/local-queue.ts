import PQueue from 'p-queue';
import { SluiceError } from '../errors/sluice-error.ts';
import type { JobContext, JobHandler, JobName, JobOptions, JobPayload, JobQueue, JobResult, QueueProgressEvent, QueueStats } from './job-queue.ts';
import { assertJsonPayload } from './json-payload.ts';
import { createKeyedMutex } from './keyed-mutex.ts';

export interface LocalQueueOptions {
  concurrency: number;
  /** Progress sink (the kernel forwards it to the `queue:progress` hook). */
  onProgress?(event: QueueProgressEvent): void;
}

/** The embedded queue: p-queue for the global limit, a keyed mutex for one writer per key. */
export function createLocalQueue(options: LocalQueueOptions): JobQueue {
  const pq = new PQueue({ concurrency: checkConcurrency(options.concurrency) });
  const handlers = new Map<string, { handler: JobHandler<JobName>; owner: string }>();
  const keyed = createKeyedMutex();
  let seq = 0;
  let done = 0;
  let failed = 0;
  const stats = (): QueueStats => ({ concurrency: pq.concurrency, queued: pq.size, running: pq.pending, done, failed });
  const emit = options.onProgress
    ? (job: string, id: string, state: QueueProgressEvent['state'], label?: string) => options.onProgress!({ job, id, label, state, stats: stats() })
    : undefined;

  async function execute<N extends JobName>(name: N, payload: JobPayload<N>, o: JobOptions): Promise<JobResult<N>> {
    const entry = handlers.get(name);
    if (!entry) throw new SluiceError('JOB_UNKNOWN', { message: `no handler registered for job ${name}` });
    const id = `${name}#${++seq}`;
    const signal = o.signal ?? new AbortController().signal;
    if (signal.aborted) throw cancelled(name);
    emit?.(name, id, 'queued', o.label);
    // The signal only cancels a job that is still waiting. Once started, the handler owns the
    // signal and decides what cancellation returns (a delegate reports status 'cancelled').
    let started = false;
    let onAbort: (() => void) | undefined;
    const abortedWhileQueued = new Promise<never>((_, reject) => {
      onAbort = () => {
        if (!started) reject(cancelled(name));
      };
      signal.addEventListener('abort', onAbort, { once: true });
    });
    try {
      const task = pq.add(
        async () => {
          if (signal.aborted) throw cancelled(name);
          started = true;
          emit?.(name, id, 'started', o.label);
          const ctx: JobContext = { id, signal, workdir: o.workdir, attempt: o.attempt ?? 1, ...(o.leaseHeld ? { leaseHeld: o.leaseHeld } : {}) };
          if (o.onProgress) ctx.progress = o.onProgress;
          return (entry.handler as JobHandler<N>)(payload, ctx);
        },
        { priority: o.priority ?? 0 },
      );
      task.catch(() => {});
      const result = await Promise.race([task, abortedWhileQueued]);
      done++;
      emit?.(name, id, 'done', o.label);
      return result as JobResult<N>;
    } catch (error) {
      const isAbort = signal.aborted;
      if (isAbort) emit?.(name, id, 'cancelled', o.label);
      else {
        failed++;
        emit?.(name, id, 'failed', o.label);
      }
      if (isAbort && !(error instanceof SluiceError)) throw cancelled(name);
      throw error;
    } finally {
      signal.removeEventListener('abort', onAbort!);
    }
  }

  return {
    kind: 'local',
    register(name, handler, owner = 'core') {
      const existing = handlers.get(name);
      if (existing) throw new SluiceError('PLUGIN_DUPLICATE', { plugin: owner, message: `job ${name} is already registered by ${existing.owner}` });
      handlers.set(name, { handler: handler as JobHandler<JobName>, owner });
    },
    has: (name) => handlers.has(name),
    jobNames: () => [...handlers.keys()].sort(),
    run(name, payload, o = {}) {
      assertJsonPayload(name, payload);
      if (o.key === undefined) return execute(name, payload, o);
      return keyed.run(o.key, () => execute(name, payload, o));
    },
    exclusive: (key, fn) => keyed.run(key, fn),
    setConcurrency(limit) {
      pq.concurrency = checkConcurrency(limit);
    },
    stats,
    onIdle: async () => {
      await pq.onIdle();
      await keyed.idle();
    },
  };
}

function cancelled(name: string): SluiceError {
  return new SluiceError('QUEUE_CANCELLED', { message: `job ${name} was cancelled` });
}

function checkConcurrency(limit: number): number {
  if (!Number.isInteger(limit) || limit < 1 || limit > 256) {
    throw new SluiceError('CONFIG_INVALID', { field: 'concurrency', message: `concurrency must be an integer from 1 to 256, got ${limit}` });
  }
  return limit;
}
