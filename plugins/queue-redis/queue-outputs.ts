import * as v from 'valibot';
import { commandOutput } from '../../core/index.ts';

/** The --json documents of `sluice worker` and `sluice queue status|retry|drain`. */

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const JobView = v.strictObject({
  id: v.string(),
  queue: v.string(),
  job: v.string(),
  label: v.optional(v.string()),
  key: v.optional(v.string()),
  needs: v.array(v.string()),
  worker: v.optional(v.string()),
  reason: v.optional(v.string()),
});

export const QueueStatusOutput = commandOutput({
  url: v.string(),
  counts: v.strictObject({ waiting: Count, running: Count, delayed: Count, completed: Count, cancelled: Count, failed: Count }),
  workers: v.array(
    v.strictObject({
      id: v.string(),
      host: v.string(),
      pid: v.number(),
      delegates: v.array(v.string()),
      concurrency: v.number(),
      startedAt: v.string(),
      running: v.pipe(v.array(v.strictObject({ id: v.string() })), v.description('The jobs it runs now, by id (see `running` for the whole jobs).')),
      stopping: v.boolean(),
    }),
  ),
  running: v.array(JobView),
  failed: v.array(JobView),
  unserved: v.pipe(v.array(v.strictObject({ needs: v.array(v.string()) })), v.description('Delegate sets waiting jobs need that no live worker has.')),
});

export const QueueRetryOutput = commandOutput({
  retried: v.pipe(v.array(JobView), v.description('The failed jobs put back in the queue, as they were when they failed (reason: why).')),
  missing: v.pipe(v.array(v.strictObject({ id: v.string() })), v.description('Job ids given that name no failed job.')),
});

export const QueueDrainOutput = commandOutput({ removed: v.pipe(v.array(JobView), v.description('The jobs taken out of the queue (they had not started).')) });

export const WorkerOutput = commandOutput({ worker: v.string(), done: Count, failed: Count, handedBack: Count });

export const QueueKeyOutput = commandOutput({
  file: v.pipe(v.string(), v.description('Where the queue key is (never the key itself).')),
  created: v.pipe(v.boolean(), v.description('Whether this run made it (an existing key is never replaced).')),
});
