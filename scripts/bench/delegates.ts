// Delegate figures: 40 runs of a fake CLI that sleeps 200 ms, through the real queue, spawner and
// transcript code at concurrency 4. Ideal wall time is 10 x 200 ms; target ratio <= 1.15.
// Also: script backend runs per second (what the demo and dry runs cost), and the OS sandbox's added
// start-up per run: the same quick CLI run with `sandbox: auto` (bubblewrap here) and `off`, paired and
// alternated in one process (target <= 30 ms); for a node CLI too, with NODE_EXTRA_CA_CERTS unset and set.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as v from 'valibot';
import { createKernel, SluiceConfigSchema } from '../../core/index.ts';
import { delegatePlugins } from '../../delegates/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

export const name = 'delegates';

const RUNS = 40;
const CONCURRENCY = 4;
const SLEEP_MS = 200;

// /bin/sh, not node: the bench measures sluice's overhead, not a fake's start-up time.
const FAKE_CLAUDE = `#!/bin/sh
cat > /dev/null
sleep ${SLEEP_MS / 1000}
printf '%s\\n' '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"done","session_id":"bench","total_cost_usd":0}'
`;

async function parallelCli(root: string, sandbox: 'auto' | 'off' = 'auto') {
  const fake = join(root, 'fake-claude');
  await writeFile(fake, FAKE_CLAUDE);
  await chmod(fake, 0o755);
  const config = v.parse(SluiceConfigSchema, { sandbox, concurrency: CONCURRENCY, delegates: { claude: { command: fake, outputFormat: 'json' } } });
  const kernel = await createKernel({ host: createNodeHost({ cwd: root }), projectRoot: root, config, plugins: delegatePlugins });
  const run = () => kernel.runDelegate('claude', { prompt: 'bench', mode: 'analysis', cwd: root, timeoutMs: 30_000 });
  await run(); // warm up: lazy imports, availability check
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: RUNS }, run));
  const wallMs = performance.now() - started;
  const failed = results.filter((r) => r.status !== 'ok');
  if (failed.length > 0) throw new Error(`${failed.length} bench runs failed: ${failed[0].error}`);
  const idealMs = (RUNS / CONCURRENCY) * SLEEP_MS;
  const perRun = results.map((r) => r.durationMs - SLEEP_MS).sort((a, b) => a - b);
  return {
    runs: RUNS,
    concurrency: CONCURRENCY,
    sleepMs: SLEEP_MS,
    wallMs: Math.round(wallMs),
    idealMs,
    ratio: Math.round((wallMs / idealMs) * 1000) / 1000,
    target: 1.15,
    meetsTarget: wallMs / idealMs <= 1.15,
    perRunOverheadMs: { median: perRun[Math.floor(perRun.length / 2)], max: perRun[perRun.length - 1] },
  };
}

async function scriptRate(root: string) {
  const script = join(root, 'bench-script.yaml');
  await writeFile(script, 'version: 1\nrules:\n  - match: "step (\\\\d+)"\n    reply: "did step $1"\n');
  const config = v.parse(SluiceConfigSchema, { concurrency: CONCURRENCY });
  const kernel = await createKernel({ host: createNodeHost({ cwd: root }), projectRoot: root, config, plugins: delegatePlugins });
  const run = (i: number) => kernel.runDelegate('script', { prompt: `step ${i}`, mode: 'analysis', cwd: root, extra: { script } });
  await run(0);
  const n = 200;
  const started = performance.now();
  await Promise.all(Array.from({ length: n }, (_, i) => run(i)));
  const ms = performance.now() - started;
  return { runs: n, wallMs: Math.round(ms), runsPerSecond: Math.round((n / ms) * 1000) };
}

const QUICK_CLAUDE = `#!/bin/sh
cat > /dev/null
printf '%s\\n' '{"type":"result","subtype":"success","is_error":false,"num_turns":1,"result":"done","session_id":"bench","total_cost_usd":0}'
`;
const NODE_CLAUDE = `#!/usr/bin/env node
process.stdin.resume().on('end', () => console.log(JSON.stringify({ type: 'result', subtype: 'success', is_error: false, num_turns: 1, result: 'done', session_id: 'bench', total_cost_usd: 0 })));
`;
const PAIRS = 30;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

/** Median wall time per run with the sandbox and without, alternated so machine load hits both alike. */
async function sandboxPair(root: string, fake: string, env: Record<string, string> = {}) {
  const kernelFor = async (sandbox: 'auto' | 'off') => {
    const config = v.parse(SluiceConfigSchema, { sandbox, delegates: { claude: { command: fake, outputFormat: 'json', env } } });
    const host = createNodeHost({ cwd: root });
    return { kernel: await createKernel({ host, projectRoot: root, config, plugins: delegatePlugins }), kind: await host.sandboxKind?.() };
  };
  const on = await kernelFor('auto');
  const off = await kernelFor('off');
  if (!on.kind) return { skipped: 'no OS sandbox on this machine' };
  const time = async (k: typeof on) => {
    const started = performance.now();
    const r = await k.kernel.runDelegate('claude', { prompt: 'bench', mode: 'write', cwd: root, timeoutMs: 30_000 });
    if (r.status !== 'ok') throw new Error(`bench run failed: ${r.error}`);
    return performance.now() - started;
  };
  await time(on);
  await time(off);
  const sandboxed: number[] = [];
  const plain: number[] = [];
  for (let i = 0; i < PAIRS; i++) {
    sandboxed.push(await time(on));
    plain.push(await time(off));
  }
  const added = Math.round((median(sandboxed) - median(plain)) * 10) / 10;
  return {
    kind: on.kind,
    pairs: PAIRS,
    sandboxedMs: Math.round(median(sandboxed) * 10) / 10,
    offMs: Math.round(median(plain) * 10) / 10,
    addedMs: added,
    target: 30,
    meetsTarget: added <= 30,
  };
}

async function sandboxStartup(root: string) {
  const sh = join(root, 'quick-claude');
  await writeFile(sh, QUICK_CLAUDE);
  await chmod(sh, 0o755);
  const node = join(root, 'node-claude');
  await writeFile(node, NODE_CLAUDE);
  await chmod(node, 0o755);
  const certs = process.env.NODE_EXTRA_CA_CERTS || '/etc/ssl/certs/ca-certificates.crt';
  return {
    shellCli: await sandboxPair(root, sh),
    nodeCli: await sandboxPair(root, node, { NODE_EXTRA_CA_CERTS: '' }),
    nodeCliExtraCaCerts: await sandboxPair(root, node, { NODE_EXTRA_CA_CERTS: certs }),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-delegates-'));
  try {
    return {
      sandboxStartup: await sandboxStartup(root),
      parallelCli: await parallelCli(root),
      parallelCliUnsandboxed: await parallelCli(root, 'off'),
      scriptBackend: await scriptRate(root),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
