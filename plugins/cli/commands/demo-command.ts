import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createKernel, createQueueKey, defineCommand, queueKeyFile, readQueueKey, SluiceError, type CommandIO, type Kernel } from '../../../core/index.ts';
import { createNodeHost } from '../../host-node/index.ts';
import { DemoOutput } from './cli-outputs.ts';
import type { DemoWorkers } from './demo-workers.ts';

/**
 * `sluice demo`: sluice's main job on a built-in example, with no AI CLI installed. In a fresh folder
 * it walks an SDLC project through its gates (and renders the HTML report), runs requirements through
 * the lifecycle, and runs a short skill tune — every AI step played by the `script` delegate.
 */
export const demoCommand = defineCommand({
  name: 'demo',
  summary: 'run the SDLC gates, a requirement lifecycle and a skill tune on a built-in example (no AI CLI needed)',
  options: [{ flags: '--dir <folder>', description: 'where to build the example (must be empty or new; default: a new temp folder)' }],
  examples: ['sluice demo', 'sluice demo --dir ./sluice-demo --json', 'sluice demo --queue redis://127.0.0.1:6380'],
  output: DemoOutput,
  async run({ options }, { io, signal, kernel }) {
    const dir = await demoFolder(options.dir as string | undefined);
    const say = (line: string) => io.print(io.style.dim(`  ${line}`));
    const progress = io.progress('sluice demo');
    // With --queue the lifecycle and the tune run as durable jobs on two worker processes the demo starts.
    const queue = kernel.config.queue;
    let fleet: DemoWorkers | undefined;
    const opened: Kernel[] = [];
    let shownQueue: string | undefined;
    try {
      io.print(io.style.bold(`sluice demo in ${dir}`));
      if (queue !== undefined) {
        shownQueue = (await import('../../queue-redis/index.ts')).redactUrl(queue);
        io.print(`\n${io.style.bold('0. Workers')} ${io.style.dim(`(two \`sluice worker\` processes on ${shownQueue})`)}`);
        progress.update('starting workers');
        // The demo's orchestrator and workers share this machine, so one new key serves them all.
        if (await createQueueKey(kernel.host)) say(`made a queue key at ${queueKeyFile(kernel.host)} (mode 0600) to sign the jobs`);
        const { startDemoWorkers } = await import('./demo-workers.ts');
        const { DEMO_WORKER_GIT_ENV } = await import('../../lifecycle/demo.ts');
        fleet = await startDemoWorkers(queue, join(dir, 'workers'), 2, { say, env: DEMO_WORKER_GIT_ENV });
      }
      const demoKernel = async (root: string) => {
        const k = await kernelFor(root, queue);
        opened.push(k);
        return k;
      };

      io.print(`\n${io.style.bold('1. SDLC phases and gates')} ${io.style.dim('(starter profile, Discovery → Close)')}`);
      progress.update('SDLC: walking the phases');
      const sdlcDir = join(dir, 'sdlc-project');
      const sdlcKernel = await demoKernel(sdlcDir);
      const { runSdlcDemo } = await import('../../sdlc/demo.ts');
      const sdlc = await runSdlcDemo(sdlcKernel, sdlcDir, say);
      const { runCommand } = await import('../../sdlc/demo/run-command.ts');
      const report = await runCommand(sdlcKernel, 'report', [], { all: true }, signal);
      if (report.exitCode !== 0) throw report.error ?? new SluiceError('INTERNAL', { message: `report failed: ${report.human}` });
      const reportIndex = join(sdlcDir, '.sdlc', 'reports', 'index.html');

      io.print(
        `\n${io.style.bold('2. Requirement lifecycle')} ${io.style.dim('(plan → implement → review → test → retro → commit, 3 requirements in parallel)')}`,
      );
      progress.update('lifecycle: running requirements');
      const lifecycleDir = join(dir, 'lifecycle-project');
      const { runLifecycleDemo } = await import('../../lifecycle/demo.ts');
      const lifecycleKernel = await demoKernel(lifecycleDir);
      const lifecycle = await runLifecycleDemo(lifecycleKernel, lifecycleDir, {
        say,
        signal,
        ...(queue === undefined ? {} : { workers: { dispatcher: lifecycleKernel.dispatcher } }),
      });

      io.print(`\n${io.style.bold('3. Skill tuning')} ${io.style.dim('(execute → evaluate → improve until the threshold)')}`);
      progress.update('skill tune: iterating');
      const tuneDir = join(dir, 'skill-tune-project');
      const { runTuneDemo } = await import('../../skill-tune/demo.ts');
      const tune = await runTuneDemo(await demoKernel(tuneDir), tuneDir, { say, signal });
      progress.done();

      const workers = fleet?.workers;
      const data = { dir, sdlc: { ...sdlc, reportIndex }, lifecycle, tune, ...(workers ? { queue: shownQueue, workers } : {}) };
      return { exitCode: 0, data, human: summary(io, data) };
    } finally {
      progress.done();
      // Redis connections first (they would keep the process alive), then the workers.
      await Promise.all(opened.map((k) => k.dispatcher.close?.()));
      await fleet?.stop();
    }
  },
});

async function demoFolder(requested: string | undefined): Promise<string> {
  if (requested === undefined) return mkdtemp(join(tmpdir(), 'sluice-demo-'));
  const dir = resolve(requested);
  const host = createNodeHost();
  const info = await host.stat(dir);
  if (info && (info.kind !== 'dir' || (await host.listDir(dir)).length > 0)) {
    throw new SluiceError('USAGE', { message: `--dir ${requested} must be a new or empty folder`, field: '--dir' });
  }
  await host.mkdir(dir);
  return dir;
}

/** Each part of the demo is its own project, so it gets a kernel rooted there; with a queue URL its durable jobs go to Redis. */
async function kernelFor(root: string, queue: string | undefined): Promise<Kernel> {
  const host = createNodeHost({ cwd: root });
  await host.mkdir(root);
  const { builtinFaces } = await import('../builtin-manifest.ts');
  const { createRedisQueue } = queue === undefined ? { createRedisQueue: undefined } : await import('../../queue-redis/index.ts');
  return createKernel({
    host,
    projectRoot: root,
    plugins: builtinFaces,
    ...(queue && createRedisQueue
      ? { dispatcher: (onProgress) => createRedisQueue({ url: queue, what: '--queue', onProgress, queueKey: () => readQueueKey(host) }) }
      : {}),
  });
}

interface DemoData {
  dir: string;
  sdlc: { finalPhase: string; historyLength: number; approvals: number; phasesWalked: string[]; statePath: string; reportIndex: string };
  lifecycle: { requirements: { slug: string; status: string | null; commit?: string }[]; commits: unknown[] };
  tune: { reportPath: string; reason: string; scores: (number | null)[]; iterations: number };
  queue?: string;
  workers?: { pid: number; workdir: string }[];
}

function summary(io: CommandIO, d: DemoData): string {
  const s = io.style;
  const lines = [
    '',
    s.bold('Done. Where to look:'),
    `  SDLC      ${d.sdlc.phasesWalked.length} phase entries walked to ${s.cyan(d.sdlc.finalPhase)}, ${d.sdlc.historyLength} history entries, ${d.sdlc.approvals} manual gates signed`,
    `            state   ${d.sdlc.statePath}`,
    `            report  ${s.green(d.sdlc.reportIndex)}`,
    `  lifecycle ${d.lifecycle.requirements.map((r) => `${r.slug}: ${r.status}${r.commit ? ` (${r.commit.slice(0, 8)})` : ''}`).join(', ')}`,
    `            ${d.lifecycle.commits.length} commits in ${join(d.dir, 'lifecycle-project')}`,
    `  tune      ${d.tune.iterations} iterations, scores ${d.tune.scores.map((x) => (x === null ? '—' : x.toFixed(1))).join(' → ')}, stopped: ${d.tune.reason}`,
    `            report  ${s.green(d.tune.reportPath)}`,
    ...(d.workers ? [`  workers   ${d.workers.map((w) => `pid ${w.pid}`).join(', ')} on ${d.queue} (stopped)`] : []),
  ];
  return lines.join('\n');
}
