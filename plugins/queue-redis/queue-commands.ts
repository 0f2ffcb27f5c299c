import { defineCommand, type Kernel } from '../../core/index.ts';
import type { QueueStatus } from './queue-admin.ts';
import { QueueDrainOutput, QueueRetryOutput, QueueStatusOutput } from './queue-outputs.ts';
import { requireQueue } from './queue-url.ts';

async function withAdmin<T>(
  kernel: Kernel,
  command: string,
  fn: (admin: Awaited<ReturnType<typeof import('./queue-admin.ts').openAdmin>>) => Promise<T>,
): Promise<T> {
  const { openAdmin } = await import('./queue-admin.ts');
  const { url, tls } = await requireQueue(kernel, command);
  const admin = await openAdmin(url, 'the queue URL', tls);
  try {
    return await fn(admin);
  } finally {
    await admin.close();
  }
}

function statusText(s: QueueStatus): string {
  const c = s.counts;
  const lines = [
    `queue ${s.url}: ${c.waiting} waiting, ${c.delayed} delayed, ${c.running} running, ${c.completed} completed, ${c.cancelled} cancelled, ${c.failed} failed`,
  ];
  lines.push(`workers (${s.workers.length}):`);
  for (const w of s.workers)
    lines.push(
      `  ${w.id}  ${w.host} pid ${w.pid}  concurrency ${w.concurrency}  delegates ${w.delegates.join(', ') || '(none)'}  running ${w.running.length}${w.stopping ? '  (stopping)' : ''}`,
    );
  if (s.running.length)
    lines.push('running:', ...s.running.map((j) => `  ${j.id}  ${j.job}${j.label ? ` ${j.label}` : ''}${j.worker ? `  on ${j.worker}` : ''}`));
  if (s.failed.length) lines.push('failed:', ...s.failed.map((j) => `  ${j.id}  ${j.job}${j.label ? ` ${j.label}` : ''}: ${j.reason}`));
  for (const { needs } of s.unserved) lines.push(`warning: jobs wait for a worker with delegate(s) ${needs.join(', ')}, and no live worker has them`);
  return lines.join('\n');
}

export const queueStatusCommand = defineCommand({
  name: 'queue status',
  summary: 'show the Redis queue: job counts, live workers (host, pid, delegates), running and failed jobs',
  examples: [
    'SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0 sluice queue status',
    'SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0 sluice queue status --json',
  ],
  output: QueueStatusOutput,
  async run(_input, { kernel }) {
    const status = await withAdmin(kernel, 'sluice queue status', (a) => a.status());
    return { exitCode: 0, data: status, human: statusText(status) };
  },
});

export const queueRetryCommand = defineCommand({
  name: 'queue retry',
  summary: 'put failed jobs back in the Redis queue (all of them, or the ids given)',
  args: ['[ids...]'],
  examples: [
    'SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0 sluice queue retry',
    'SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0 sluice queue retry JOB_ID',
  ],
  output: QueueRetryOutput,
  async run({ args }, { kernel }) {
    const ids = (args[0] as string[] | undefined) ?? [];
    const retried = await withAdmin(kernel, 'sluice queue retry', (a) => a.retry(ids));
    const missing = ids.filter((id) => !retried.some((j) => j.id === id)).map((id) => ({ id }));
    const human = [`${retried.length} failed job(s) back in the queue`, ...missing.map((m) => `not a failed job: ${m.id}`)].join('\n');
    return { exitCode: missing.length > 0 ? 1 : 0, data: { retried, missing }, human };
  },
});

export const queueDrainCommand = defineCommand({
  name: 'queue drain',
  summary: 'remove every job that has not started from the Redis queue (running jobs finish; their callers see the rest cancelled)',
  examples: ['SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0 sluice queue drain'],
  output: QueueDrainOutput,
  async run(_input, { kernel }) {
    const removed = await withAdmin(kernel, 'sluice queue drain', (a) => a.drain());
    return { exitCode: 0, data: { removed }, human: `${removed.length} waiting job(s) removed` };
  },
});
