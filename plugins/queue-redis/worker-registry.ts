import type { Redis } from 'ioredis';
import { names } from './queue-names.ts';

/** What a worker tells Redis about itself (and `sluice queue status` shows). */
export interface WorkerAnnouncement {
  id: string;
  host: string;
  pid: number;
  delegates: string[];
  concurrency: number;
  startedAt: string;
  /** Ids of the jobs it runs now. */
  running: string[];
  stopping: boolean;
}

/** A worker's entry expires unless it beats within this many heartbeats: a killed worker disappears. */
const MISSED_BEATS = 3;

export async function announce(redis: Redis, w: WorkerAnnouncement, beatMs: number): Promise<void> {
  await redis
    .multi()
    .set(names.worker(w.id), JSON.stringify(w), 'PX', beatMs * MISSED_BEATS)
    .sadd(names.workers, w.id)
    .exec();
}

export async function withdraw(redis: Redis, id: string): Promise<void> {
  await redis.multi().del(names.worker(id)).srem(names.workers, id).exec();
}

/** The workers alive now (entries of workers that stopped beating are dropped). */
export async function listWorkers(redis: Redis): Promise<WorkerAnnouncement[]> {
  const ids = (await redis.smembers(names.workers)).sort();
  if (ids.length === 0) return [];
  const values = await redis.mget(ids.map((id) => names.worker(id)));
  const out: WorkerAnnouncement[] = [];
  for (const [i, v] of values.entries()) {
    if (v === null) await redis.srem(names.workers, ids[i]);
    else out.push(JSON.parse(v) as WorkerAnnouncement);
  }
  return out;
}
