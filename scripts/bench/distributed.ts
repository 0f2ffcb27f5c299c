// Distributed figures (issue 16): requirements through `lifecycle run --queue` on 1 worker process and on
// 4 (target: 4 workers ≥ 3.2× the throughput of 1), with a script delegate sleeping 200 ms per stage; and
// the per-job overhead of the Redis queue over the in-process dispatcher (target ≤ 10 ms). Needs
// redis-server (Debian's package); the section reports why it skipped without it.
// BENCH_DISTRIBUTED_N (default 40) and BENCH_DISTRIBUTED_DELAY_MS (default 200) shrink a trial run.
import { availableParallelism, loadavg } from 'node:os';
import { queueOverhead } from './distributed-parts/queue-overhead.ts';
import { throughput } from './distributed-parts/lifecycle-throughput.ts';
import { redisMissing, startRedis } from './distributed-parts/redis-process.ts';

export const name = 'distributed';

const N = Number(process.env.BENCH_DISTRIBUTED_N ?? 40);
const DELAY_MS = Number(process.env.BENCH_DISTRIBUTED_DELAY_MS ?? 200);
const RATIO_TARGET = 3.2;

export async function run(): Promise<Record<string, unknown>> {
  const missing = redisMissing();
  if (missing) return { skipped: missing };
  const redis = await startRedis();
  try {
    process.stderr.write('bench: distributed: queue overhead...\n');
    const overhead = await queueOverhead(`${redis.url}/0`);
    process.stderr.write(`bench: distributed: ${N} requirements on 1 worker...\n`);
    const one = await throughput(`${redis.url}/1`, 1, N, DELAY_MS);
    process.stderr.write(`bench: distributed: ${N} requirements on 4 workers...\n`);
    const four = await throughput(`${redis.url}/2`, 4, N, DELAY_MS);
    const ratio = Math.round((one.wallMs / four.wallMs) * 100) / 100;
    const stages = 6;
    return {
      requirements: N,
      delegateDelayMs: DELAY_MS,
      // The delegate's sleeps alone, one job at a time: the floor under the 1-worker run.
      sleepFloorMsOneWorker: N * stages * DELAY_MS,
      oneWorker: one,
      fourWorkers: four,
      throughputRatio: { value: ratio, target: RATIO_TARGET, withinTarget: ratio >= RATIO_TARGET },
      // What a requirement job costs beyond its delegate sleeps on one worker (clone, checkpoints, push, queue).
      perRequirementOverheadMsOneWorker: Math.round(one.wallMs / N - stages * DELAY_MS),
      queueOverhead: overhead,
      nodeExtraCaCerts: process.env.NODE_EXTRA_CA_CERTS ? 'set' : 'unset',
      // A requirement job's own work (clone, git per stage, checkpoint pushes) is CPU: 4 workers scale only
      // as far as free cores let them, so the ratio is read against these.
      host: { cpus: availableParallelism(), loadAverage1m: Math.round(loadavg()[0] * 10) / 10 },
    };
  } finally {
    await redis.stop();
  }
}
