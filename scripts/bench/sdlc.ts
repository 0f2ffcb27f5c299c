// SDLC figures: the full demo walk (0 → close through the real commands), a gate run on the
// heaviest opening phase (Design: 9 required artifacts, G1/G2/G5/G7 at once through the queue),
// the cost of a grown state.yaml (full results of every transition), and 8 parallel
// `next --confirmed` processes of the bundled CLI advancing exactly once; and `sluice gate`/`status`
// against the reference plugin's scripts on the same project (sdlc-parts/reference-paired.ts).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createKernel, type Kernel } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runSdlcDemo } from '../../plugins/sdlc/demo.ts';
import { runCommand } from '../../plugins/sdlc/demo/run-command.ts';
import { writePhaseArtifacts } from '../../plugins/sdlc/demo/write-phase-artifacts.ts';
import { gatePlugins } from '../../gates/index.ts';
import { sdlcPlugin } from '../../plugins/sdlc/index.ts';
import { openProject } from '../../plugins/sdlc/project/open-project.ts';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';
import { referencePaired } from './sdlc-parts/reference-paired.ts';
import { historyScale } from './sdlc-parts/history-scale.ts';

export const name = 'sdlc';

const kernelAt = (dir: string) => createKernel({ host: createNodeHost({ cwd: dir }), projectRoot: dir, plugins: [sdlcPlugin, ...gatePlugins] });
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const round = (n: number) => Math.round(n * 10) / 10;

async function timed<T>(fn: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const started = performance.now();
  const value = await fn();
  return { ms: performance.now() - started, value };
}

/** Passes the current phase with every manual gate approved. */
async function pass(kernel: Kernel): Promise<void> {
  const project = await openProject(kernel);
  await writePhaseArtifacts(kernel.host, kernel.projectRoot, project.model.require(project.state.current_phase), 'service');
  const ids = ((await runCommand(kernel, 'next', [], {})).data as { unapproved: { id: string }[] }).unapproved.map((m) => m.id);
  await runCommand(kernel, 'next', [], { approve: ids, signedBy: 'bench', confirmed: true });
}

async function demoWalk(root: string) {
  const dir = join(root, 'demo');
  await import('node:fs/promises').then((fs) => fs.mkdir(dir));
  const kernel = await kernelAt(dir);
  const cpu = process.cpuUsage();
  const { ms, value } = await timed(() => runSdlcDemo(kernel, dir));
  const used = process.cpuUsage(cpu);
  const stateText = await readFile(value.statePath, 'utf8');
  const parses = [];
  // A distinct text each time: the codec remembers recent texts, and this measures a cold parse.
  for (let i = 0; i < 5; i++) parses.push((await timed(async () => safeYamlCodec.parse(`${stateText}\n# ${i}\n`))).ms);
  const gates = [];
  for (let i = 0; i < 3; i++) gates.push((await timed(() => runCommand(kernel, 'gate', [], {}))).ms);
  return {
    steps: value.steps.length,
    historyEntries: value.historyLength,
    wallMs: Math.round(ms),
    cpuMs: Math.round((used.user + used.system) / 1000),
    perCommandMs: Math.round(ms / value.steps.length),
    finalStateBytes: stateText.length,
    finalStateParseMs: round(median(parses)),
    gateOnFinalStateMs: Math.round(median(gates)),
  };
}

async function designGate(root: string) {
  const dir = join(root, 'design');
  await import('node:fs/promises').then((fs) => fs.mkdir(dir));
  const kernel = await kernelAt(dir);
  await runCommand(kernel, 'init', [], { type: 'service' });
  for (let i = 0; i < 2; i++) await pass(kernel);
  const project = await openProject(kernel);
  await writePhaseArtifacts(kernel.host, dir, project.model.require('2'), 'service');
  await runCommand(kernel, 'gate', [], {});
  const runs = [];
  for (let i = 0; i < 10; i++) runs.push((await timed(() => runCommand(kernel, 'gate', [], {}))).ms);
  return { phase: '2', gateRuns: runs.length, medianMs: round(median(runs)), maxMs: round(Math.max(...runs)) };
}

function runCli(entry: string, args: string[]): Promise<number | null> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [entry, ...args], { stdio: 'ignore' });
    child.on('close', resolve);
  });
}

async function parallelNext(root: string) {
  const entry = new URL('../../dist/sluice.mjs', import.meta.url).pathname;
  if (!existsSync(entry)) return { skipped: 'dist/sluice.mjs missing: run npm run build' };
  const dir = join(root, 'race');
  await import('node:fs/promises').then((fs) => fs.mkdir(dir));
  const kernel = await kernelAt(dir);
  await runCommand(kernel, 'init', [], {});
  const project = await openProject(kernel);
  await writePhaseArtifacts(kernel.host, dir, project.model.require('0'), 'service');
  const ids = ((await runCommand(kernel, 'next', [], {})).data as { unapproved: { id: string }[] }).unapproved.map((m) => m.id);
  const args = ['--cwd', dir, 'next', ...ids.flatMap((id) => ['--approve', id]), '--signed-by', 'bench', '--confirmed'];
  const { ms, value: codes } = await timed(() => Promise.all(Array.from({ length: 8 }, () => runCli(entry, args))));
  const cold = [];
  for (let i = 0; i < 3; i++) cold.push((await timed(() => runCli(entry, ['--cwd', dir, 'gate', '--json']))).ms);
  return {
    processes: 8,
    wallMs: Math.round(ms),
    advanced: codes.filter((c) => c === 0).length,
    refused: codes.filter((c) => c === 1).length,
    coldGateCliMs: Math.round(median(cold)),
  };
}

export async function run(): Promise<Record<string, unknown>> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-sdlc-'));
  try {
    // The reference comparison first, on a quiet process (the others leave work behind).
    const againstReference = await referencePaired();
    return {
      againstReference,
      historyScale: await historyScale(),
      demoWalk: await demoWalk(root),
      designGate: await designGate(root),
      parallelNext: await parallelNext(root),
    };
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}
