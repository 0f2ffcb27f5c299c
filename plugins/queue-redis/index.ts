/**
 * sluice:queue-redis — top-level durable jobs (one requirement, one tune run) on BullMQ/Redis, worked by
 * `sluice worker` processes on any number of machines. The in-process queue stays the default.
 */
export { createRedisQueue, type RedisJobQueue, type RedisQueueOptions } from './redis-queue.ts';
export { startWorker, type RunningWorker, type StartWorkerOptions, type WorkerEvent } from './redis-worker.ts';
export { parseRedisUrl, redactUrl, type QueueTls, type RedisTarget } from './redis-url.ts';
export { checkTransport, readQueueSettings, type QueueSettings } from './queue-settings.ts';
export { resolveQueueUrl, QUEUE_URL_ENV, QUEUE_PASSWORD_ENV } from './queue-url.ts';
export { probeRedis } from './redis-connection.ts';
export { queueErrors } from './queue-errors.ts';
export { queueRedisPlugin } from './queue-redis-plugin.ts';
export { openAdmin, type QueueStatus, type QueuedJobView } from './queue-admin.ts';
