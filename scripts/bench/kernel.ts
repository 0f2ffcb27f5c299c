// Kernel figures: hook dispatch against tapable, queue overhead, store update cost, bundle cold start.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AsyncSeriesHook } from 'tapable';
import * as v from 'valibot';
import { createLocalQueue, createStateStore, defineHook, HookDriver, yamlCodec, type HookSpecs } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

const benchHooks = { 'bench:sync': defineHook.series<[number]>(), 'bench:async': defineHook.series<[number]>() };
declare module '../../core/hooks/hook-types.ts' {
  interface Hooks extends HookSpecs<typeof benchHooks> {}
}
declare module '../../core/queue/job-queue.ts' {
  interface Jobs {
    'bench:noop': { payload: { i: number }; result: number };
  }
}

export const name = 'kernel';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

async function timeCalls(calls: number, call: (i: number) => Promise<unknown>): Promise<number> {
  for (let i = 0; i < 20_000; i++) await call(i); // warm up the JIT
  const rounds: number[] = [];
  for (let r = 0; r < 5; r++) {
    const t = process.hrtime.bigint();
    for (let i = 0; i < calls; i++) await call(i);
    rounds.push(Number(process.hrtime.bigint() - t) / calls);
  }
  return Math.round(median(rounds));
}

async function hookDispatch() {
  const calls = 200_000;
  let sink = 0;
  const driver = new HookDriver();
  driver.declareAll(benchHooks);
  const tapSync = new AsyncSeriesHook<[number]>(['n']);
  const tapAsync = new AsyncSeriesHook<[number]>(['n']);
  for (let h = 0; h < 5; h++) {
    driver.on('bench:sync', `p${h}`, (n) => void (sink += n));
    driver.on('bench:async', `p${h}`, async (n) => void (sink += n));
    tapSync.tap(`p${h}`, (n) => void (sink += n));
    tapAsync.tapPromise(`p${h}`, async (n) => void (sink += n));
  }
  const sluiceSync = await timeCalls(calls, (i) => driver.call('bench:sync', i));
  const tapableSync = await timeCalls(calls, (i) => tapSync.promise(i));
  const sluiceAsync = await timeCalls(calls, (i) => driver.call('bench:async', i));
  const tapableAsync = await timeCalls(calls, (i) => tapAsync.promise(i));
  const empty = new HookDriver();
  empty.declare('bench:sync', benchHooks['bench:sync']);
  const noHandlers = await timeCalls(calls, (i) => empty.call('bench:sync', i));
  if (sink === 0) throw new Error('handlers did not run');
  return {
    handlers: 5,
    seriesSyncNsPerCall: sluiceSync,
    tapableAsyncSeriesSyncTapsNsPerCall: tapableSync,
    seriesAsyncNsPerCall: sluiceAsync,
    tapableAsyncSeriesPromiseTapsNsPerCall: tapableAsync,
    ratioSyncVsTapable: +(sluiceSync / tapableSync).toFixed(2),
    ratioAsyncVsTapable: +(sluiceAsync / tapableAsync).toFixed(2),
    noHandlersNsPerCall: noHandlers,
    target: 'ratio <= 2',
  };
}

async function queueOverhead() {
  const jobs = 20_000;
  const q = createLocalQueue({ concurrency: 8 });
  q.register('bench:noop', async ({ i }) => i);
  await Promise.all(Array.from({ length: 2000 }, (_, i) => q.run('bench:noop', { i })));
  const t = performance.now();
  await Promise.all(Array.from({ length: jobs }, (_, i) => q.run('bench:noop', { i })));
  const keyed = performance.now();
  await Promise.all(Array.from({ length: jobs }, (_, i) => q.run('bench:noop', { i }, { key: `k${i % 16}` })));
  const end = performance.now();
  return { jobs, concurrency: 8, usPerJob: +(((keyed - t) * 1000) / jobs).toFixed(2), usPerKeyedJob: +(((end - keyed) * 1000) / jobs).toFixed(2) };
}

async function storeUpdate() {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-store-'));
  const path = join(dir, 'state.yaml');
  const schema = v.looseObject({ count: v.number(), history: v.array(v.object({ at: v.string(), note: v.string() })) });
  await writeFile(path, 'count: 0\nhistory: []\n');
  const store = createStateStore({ host: createNodeHost() });
  const n = 200;
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await store.update({ path, schema }, (s) => ({
      ...s,
      count: s.count + 1,
      history: [...s.history.slice(-40), { at: new Date().toISOString(), note: `update ${i}` }],
    }));
    times.push(performance.now() - t);
  }
  return {
    updates: n,
    medianMs: +median(times).toFixed(3),
    p95Ms: +[...times].sort((a, b) => a - b)[Math.floor(n * 0.95)].toFixed(3),
    note: 'lock + read + validate + update + validate + fsync + rename + fsync dir + unlock',
  };
}

function coldStart() {
  if (!existsSync('dist/sluice.mjs')) spawnSync(process.execPath, ['scripts/build.mjs'], { stdio: 'inherit' });
  const time = (args: string[]) => {
    const t = process.hrtime.bigint();
    const r = spawnSync(process.execPath, args, { stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`node ${args.join(' ')} exited ${r.status}`);
    return Number(process.hrtime.bigint() - t) / 1e6;
  };
  const runs = 21;
  const node: number[] = [];
  const version: number[] = [];
  const plugins: number[] = [];
  for (let i = 0; i < runs; i++) {
    node.push(time(['-e', '0']));
    version.push(time(['dist/sluice.mjs', '--version']));
    plugins.push(time(['dist/sluice.mjs', 'plugins', '--json']));
  }
  return {
    runs,
    nodeEmptyMedianMs: +median(node).toFixed(1),
    sluiceVersionMedianMs: +median(version).toFixed(1),
    sluicePluginsMedianMs: +median(plugins).toFixed(1),
    ratioVersionVsNode: +(median(version) / median(node)).toFixed(2),
    target: 'ratioVersionVsNode <= 1.5',
  };
}

/**
 * Parsing YAML with 50,000 keys, in ms (the duplicate-key check once compared each key with every
 * earlier one: about 50 s). Timed here, not in test/hardening/codec-regressions, so the suite does
 * not depend on the machine's speed.
 */
function yamlManyKeys() {
  const many = Array.from({ length: 50_000 }, (_, i) => `k${i}: ${i}`).join('\n');
  const rounds: number[] = [];
  for (let r = 0; r < 3; r++) {
    const t = performance.now();
    yamlCodec.parse(many);
    rounds.push(performance.now() - t);
  }
  return { keys: 50_000, medianMs: Math.round(median(rounds)) };
}

export async function run() {
  return { hookDispatch: await hookDispatch(), queue: await queueOverhead(), store: await storeUpdate(), coldStart: coldStart(), yamlManyKeys: yamlManyKeys() };
}
