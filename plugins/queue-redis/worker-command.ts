import { isAbsolute, join, resolve } from 'node:path';
import { defineCommand, readQueueKey, SluiceError, type Kernel, SANDBOX_OPTION } from '../../core/index.ts';
import { requireQueue } from './queue-url.ts';
import { WorkerOutput } from './queue-outputs.ts';

/** Delegates that can run on this machine (their CLI is installed), optionally narrowed by --delegates. */
async function usableDelegates(kernel: Kernel, only: string | undefined): Promise<string[]> {
  const names = kernel.delegates.names();
  const wanted =
    only === undefined
      ? names
      : only
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  for (const n of wanted)
    if (!names.includes(n)) throw new SluiceError('DELEGATE_UNKNOWN', { field: '--delegates', message: `no delegate ${n}; known: ${names.join(', ')}` });
  const usable: string[] = [];
  for (const n of wanted) {
    const a = await kernel.delegates.require(n).available({ host: kernel.host, kernel, settings: kernel.config.delegates?.[n] ?? {} });
    if (a.ok) usable.push(n);
  }
  return usable.sort();
}

function seconds(value: unknown, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n < 0 || n > 86_400)
    throw new SluiceError('USAGE', { message: `${flag} must be a number of seconds from 0 to 86400, got ${JSON.stringify(value)}` });
  return n;
}

export const workerCommand = defineCommand({
  name: 'worker',
  summary: 'run top-level jobs (lifecycle requirements, tune runs) from a Redis queue until stopped (SIGTERM)',
  options: [
    { flags: '--workdir <dir>', description: 'folder for the jobs’ clones and files (default: .sluice/worker in the project)' },
    { flags: '--delegates <names>', description: 'comma-separated delegates to offer (default: every delegate available here)' },
    { flags: '--grace <seconds>', description: 'after SIGTERM, how long running jobs may finish before they are handed back (default 30)' },
    { flags: '--lease <seconds>', description: 'how soon another worker takes over the jobs of a worker that died (default 30)' },
    SANDBOX_OPTION,
  ],
  examples: [
    'SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/0 sluice worker',
    'SLUICE_QUEUE_URL=rediss://:PASSWORD@queue.internal:6380/2 sluice worker --concurrency 4 --workdir /var/tmp/sluice --grace 60',
  ],
  output: WorkerOutput,
  async run({ options }, { kernel, io, cwd, signal }) {
    const { url, tls } = await requireQueue(kernel, 'sluice worker');
    const workdir =
      options.workdir === undefined
        ? join(cwd, '.sluice', 'worker')
        : isAbsolute(String(options.workdir))
          ? String(options.workdir)
          : resolve(cwd, String(options.workdir));
    const graceMs = seconds(options.grace, '--grace', 30) * 1000;
    const leaseMs = Math.max(1, seconds(options.lease, '--lease', 30)) * 1000;
    const queueKey = await readQueueKey(kernel.host);
    const delegates = await usableDelegates(kernel, options.delegates as string | undefined);
    await kernel.host.mkdir(workdir);
    const { startWorker } = await import('./redis-worker.ts');
    let done = 0;
    let failed = 0;
    let handedBack = 0;
    const at = () => new Date().toISOString().slice(11, 19);
    const worker = await startWorker({
      url,
      what: 'the queue URL',
      tls,
      queueKey,
      dispatcher: kernel.dispatcher,
      delegates,
      workdir,
      graceMs,
      leaseMs,
      onEvent(e) {
        const what = 'job' in e ? `${e.job}${e.label ? ` ${e.label}` : ''}` : '';
        if (e.type === 'done') done++;
        if (e.type === 'failed' || e.type === 'refused') failed++;
        if (e.type === 'handed-back') handedBack++;
        if (e.type === 'started' || e.type === 'done' || e.type === 'handed-back') io.print(`${at()} ${e.type} ${what}`);
        else if (e.type === 'failed') io.print(`${at()} failed ${what}: ${e.error}`);
        else if (e.type === 'refused') io.print(`${at()} refused ${e.job} ${e.id}: ${e.error}`);
        else if (e.type === 'stopping') io.print(`${at()} stopping: ${e.running} running job(s) get ${graceMs / 1000} s to finish`);
      },
    });
    const { hostname } = await import('node:os');
    io.print(
      `sluice worker ${worker.id} ready on ${hostname()} pid ${process.pid}: queue ${worker.url}, concurrency ${kernel.dispatcher.stats().concurrency}, delegates ${delegates.join(', ') || '(none)'}, workdir ${workdir}`,
    );
    await new Promise<void>((r) => (signal.aborted ? r() : signal.addEventListener('abort', () => r(), { once: true })));
    await worker.stop();
    const data = { worker: worker.id, done, failed, handedBack };
    return { exitCode: 0, data, human: `worker ${worker.id} stopped: ${done} done, ${failed} failed, ${handedBack} handed back` };
  },
});
