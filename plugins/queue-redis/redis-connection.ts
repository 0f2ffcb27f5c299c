import { isIP } from 'node:net';
import type { RedisOptions as BullRedisOptions } from 'bullmq';
import { Redis } from 'ioredis';
import { SluiceError } from '../../core/index.ts';
import type { RedisTarget } from './redis-url.ts';

/** How long a first connection may take before the queue counts as unreachable: with process start (up to 2 s on a loaded machine) under the 5 s the issue allows. */
export const CONNECT_LIMIT_MS = 2500;

/** ioredis options for BullMQ's connections: retry forever once connected (a restarting Redis comes back). */
export function connectionOptions(target: RedisTarget): BullRedisOptions & { maxRetriesPerRequest: null } {
  return {
    host: target.host,
    port: target.port,
    db: target.db,
    password: target.password,
    username: target.username,
    // rediss://: TLS, the server's certificate checked against the configured CA (or the system's).
    ...(target.tls ? { tls: { ...target.tls, ...(isIP(target.host) ? {} : { servername: target.host }) } } : {}),
    maxRetriesPerRequest: null,
    retryStrategy: (times: number) => Math.min(times * 200, 2000),
  };
}

/** A plain client for sluice's own keys and pub/sub; it reconnects like BullMQ's. */
export function openClient(target: RedisTarget): Redis {
  const client = new Redis(connectionOptions(target));
  // Reconnection errors are retried; the failure that matters surfaces as a rejected command.
  client.on('error', () => {});
  return client;
}

/**
 * Answers whether Redis is there, within CONNECT_LIMIT_MS: the one check that turns "Redis is down" into
 * QUEUE_UNREACHABLE (exit 2, naming the URL) instead of BullMQ retrying forever.
 */
export async function probeRedis(target: RedisTarget): Promise<void> {
  const client = new Redis({
    ...connectionOptions(target),
    lazyConnect: true,
    connectTimeout: CONNECT_LIMIT_MS,
    maxRetriesPerRequest: 0,
    enableOfflineQueue: false,
    retryStrategy: () => null,
  });
  let cause: Error | undefined;
  client.on('error', (e: Error) => {
    cause ??= e;
  });
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${CONNECT_LIMIT_MS / 1000} s`)), CONNECT_LIMIT_MS);
  });
  try {
    await Promise.race([
      (async () => {
        await client.connect();
        await client.ping();
      })(),
      deadline,
    ]);
  } catch (error) {
    const first = cause ?? error;
    const why = first instanceof Error ? first.message : String(first);
    throw new SluiceError('QUEUE_UNREACHABLE', { message: `cannot reach the queue at ${target.display}: ${why}`, cause: error });
  } finally {
    clearTimeout(timer);
    client.disconnect();
  }
}

/** `promise`'s value, or undefined once `ms` passed (closing connections to a Redis that is gone must not hang an exit). */
export function within<T>(ms: number, promise: Promise<T>): Promise<T | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
    timer.unref();
  });
  return Promise.race([promise, late]).finally(() => clearTimeout(timer));
}
