import { defineErrorCodes, ExitCode } from '../../core/index.ts';

const usage = ExitCode.usage;

/** The error codes sluice:queue-redis reports (`sluice errors` lists them with the kernel's). */
export const queueErrors = defineErrorCodes('sluice:queue-redis', {
  QUEUE_URL_INVALID: { exit: usage, title: 'queue URL is not redis://HOST:PORT[/DB]', hint: 'e.g. --queue redis://127.0.0.1:6379/0' },
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
