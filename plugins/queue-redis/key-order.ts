import type { Redis } from 'ioredis';
import { names, PREFIX } from './queue-names.ts';

/**
 * One writer per key across machines, in submission order: each key has a Redis list of its jobs
 * (`<queue>/<jobId>`); only the head may run. The orchestrator appends at submission (before adding the
 * job, stamped with Redis's clock); a worker that picks a job that is not the head puts it back (delayed)
 * and the head's worker wakes it when done. A head whose job finished or is gone (a drained queue, an
 * orchestrator that died between appending and adding) is dropped, so a key never stays blocked.
 */
const ENQUEUE = `
if not redis.call('LPOS', KEYS[1], ARGV[1]) then redis.call('RPUSH', KEYS[1], ARGV[1]) end
redis.call('HSET', KEYS[2], ARGV[1], redis.call('TIME')[1])
return 1`;
const TAKE = `
local now = tonumber(redis.call('TIME')[1])
while true do
  local head = redis.call('LINDEX', KEYS[1], 0)
  if not head then redis.call('RPUSH', KEYS[1], ARGV[1]); return '' end
  if head == ARGV[1] then return '' end
  local slash = string.find(head, '/[^/]*$')
  local hash = ARGV[2] .. ':' .. string.sub(head, 1, slash - 1) .. ':' .. string.sub(head, slash + 1)
  local live
  if redis.call('EXISTS', hash) == 1 then
    live = not redis.call('HGET', hash, 'finishedOn')
  else
    live = now - tonumber(redis.call('HGET', KEYS[2], head) or '0') < 60
  end
  if live then
    if not redis.call('LPOS', KEYS[1], ARGV[1]) then redis.call('RPUSH', KEYS[1], ARGV[1]) end
    return head
  end
  redis.call('LPOP', KEYS[1])
  redis.call('HDEL', KEYS[2], head)
end`;
const RELEASE = `
redis.call('LREM', KEYS[1], 0, ARGV[1])
redis.call('HDEL', KEYS[2], ARGV[1])
return redis.call('LINDEX', KEYS[1], 0) or ''`;

export const member = (queueName: string, jobId: string) => `${queueName}/${jobId}`;

const keysOf = (key: string) => [names.keyOrder(key), `${names.keyOrder(key)}:since`] as const;

/** Appends a job to its key's order (the orchestrator, before adding the job). */
export async function enqueueKey(redis: Redis, key: string, m: string): Promise<void> {
  await redis.eval(ENQUEUE, 2, ...keysOf(key), m);
}

/** Undefined when the job may run now, else the member it waits for. */
export async function takeKey(redis: Redis, key: string, m: string): Promise<string | undefined> {
  const head = (await redis.eval(TAKE, 2, ...keysOf(key), m, PREFIX)) as string;
  return head === '' ? undefined : head;
}

/** Ends a job's turn (done, failed, cancelled, drained); returns the member whose turn it is now. */
export async function releaseKey(redis: Redis, key: string, m: string): Promise<string | undefined> {
  const next = (await redis.eval(RELEASE, 2, ...keysOf(key), m)) as string;
  return next === '' ? undefined : next;
}

export function splitMember(m: string): { queueName: string; jobId: string } {
  const slash = m.lastIndexOf('/');
  return { queueName: m.slice(0, slash), jobId: m.slice(slash + 1) };
}
