// What the Redis queue adds to one job over the in-process dispatcher: the same no-op durable job run
// one at a time through each, with a worker in this process (no process start, no delegate, no git:
// only enqueue → pick up → complete → result back). Target ≤ 10 ms per job.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, definePlugin, type Kernel } from '../../../core/index.ts';
import { builtinPlugins } from '../../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../../plugins/host-node/index.ts';
import { createRedisQueue, startWorker } from '../../../plugins/queue-redis/index.ts';
import { benchQueueKey } from './bench-queue-key.ts';

declare module '../../../core/queue/job-queue.ts' {
  interface Jobs {
    'bench:durable-noop': { payload: { n: number }; result: { n: number } };
  }
}

const noopPlugin = definePlugin({
  name: 'bench:durable-noop',
  setup(ctx) {
    ctx.registerDurableJob('bench:durable-noop', async ({ n }) => ({ n }));
  },
});

const round = (x: number) => Math.round(x * 100) / 100;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function kernelIn(dir: string, url?: string): Promise<Kernel> {
  const queueKey = await benchQueueKey();
  const host = createNodeHost({ cwd: dir });
  return createKernel({
    host,
    projectRoot: dir,
    plugins: [...builtinPlugins, noopPlugin],
    ...(url ? { dispatcher: (onProgress) => createRedisQueue({ queueKey, url, onProgress }) } : {}),
  });
}

/** Each job waits for the previous one: latency, not throughput. */
async function timeJobs(kernel: Kernel, jobs: number): Promise<number[]> {
  const times: number[] = [];
  for (let n = 0; n < jobs; n++) {
    const started = performance.now();
    const r = await kernel.dispatcher.run('bench:durable-noop', { n });
    if (r.n !== n) throw new Error(`job ${n} came back as ${r.n}`);
    times.push(performance.now() - started);
  }
  return times;
}

export async function queueOverhead(url: string, jobs = 200): Promise<Record<string, unknown>> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-overhead-'));
  const local = await kernelIn(dir);
  await timeJobs(local, 20);
  const localTimes = await timeJobs(local, jobs);
  const orchestrator = await kernelIn(dir, url);
  const workerKernel = await kernelIn(dir);
  const worker = await startWorker({
    queueKey: await benchQueueKey(),
    url,
    dispatcher: workerKernel.dispatcher,
    delegates: [],
    concurrency: 1,
    workdir: dir,
    graceMs: 1000,
  });
  try {
    await timeJobs(orchestrator, 20);
    const redisTimes = await timeJobs(orchestrator, jobs);
    const overhead = median(redisTimes) - median(localTimes);
    return {
      jobs,
      inProcessMedianMs: round(median(localTimes)),
      redisMedianMs: round(median(redisTimes)),
      overheadPerJobMs: round(overhead),
      target: 10,
      withinTarget: overhead <= 10,
    };
  } finally {
    await worker.stop();
    await orchestrator.dispatcher.close?.();
  }
}
