import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;

/** The error codes sluice:queue-redis reports (`sluice errors` lists them with the kernel's). */
export const queueErrors = defineErrorCodes('sluice:queue-redis', {
  QUEUE_URL_INVALID: {
    exit: usage,
    title: 'queue URL is not redis[s]://HOST:PORT[/DB]',
    hint: 'e.g. SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0',
  },
  QUEUE_URL_INSECURE: {
    exit: usage,
    title: 'the queue is on another machine without password and TLS',
    hint: 'use rediss://:PASSWORD@HOST:PORT/DB (README: Running on many machines), or set queue.allow_insecure: true in ~/.config/sluice/config.yaml on a network you trust',
  },
  QUEUE_OUT_OF_MEMORY: {
    exit: usage,
    title: 'the queue’s Redis is full (maxmemory)',
    hint: 'raise maxmemory, set maxmemory-policy noeviction, or clear old jobs (sluice queue drain); then run the command again, it resumes',
  },
  QUEUE_DATA_LOST: {
    exit: usage,
    title: 'the queue’s Redis lost its data (restarted without persistence?)',
    hint: 'turn on appendonly yes in redis.conf; run the command again: requirements resume from their checkpoints',
  },
  QUEUE_ORCHESTRATOR_GONE: {
    exit: usage,
    title: 'the run that queued this job is gone',
    hint: 'run `sluice lifecycle run --queue` again: it resumes from the checkpoints; `sluice queue drain` clears what nobody waits for',
  },
  QUEUE_UNREACHABLE: {
    exit: usage,
    title: 'the Redis server of the queue does not answer',
    hint: 'start redis-server there, or check the host, port and password in the URL',
  },
  QUEUE_JOB_LOST: { exit: usage, title: 'a queued job vanished from Redis', hint: 'Redis lost data (no append-only file?); run the command again' },
});

type QueueErrorCodes = typeof queueErrors;

declare module '../../core/errors/catalog.ts' {
  interface ErrorCodes extends QueueErrorCodes {}
}
