import { SluiceError } from '../../core/index.ts';
import type { RedisTarget } from './redis-url.ts';

/** How long an orchestrator's heartbeat lasts: it renews it on every poll (every 2 s by default). */
export const ORCHESTRATOR_BEAT_MS = 15_000;

/**
 * A Redis refusal that has a remedy of its own, as its named error: a full Redis (maxmemory reached,
 * "OOM command not allowed") is QUEUE_OUT_OF_MEMORY with what to do, not INTERNAL. Anything else is
 * returned as it is.
 */
export function redisFault(error: unknown, target: RedisTarget): unknown {
  const message = error instanceof Error ? error.message : String(error);
  if (/^OOM\b|maxmemory/.test(message))
    return new SluiceError('QUEUE_OUT_OF_MEMORY', { message: `the queue's Redis at ${target.display} is full: ${message.split('\n')[0]}`, cause: error });
  return error;
}

/** The job's data is gone because Redis lost everything (its epoch mark too), not because someone drained it. */
export function dataLost(target: RedisTarget, what: string): SluiceError {
  return new SluiceError('QUEUE_DATA_LOST', {
    message: `the queue's Redis at ${target.display} lost its data (restarted without persistence?): ${what} is gone`,
  });
}
