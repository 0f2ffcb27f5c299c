// Throughput of `lifecycle run --queue`: the same requirements through 1 worker process and through 4,
// each worker running one job at a time, with a script delegate that sleeps per stage (AI time
// stand-in). The orchestrator runs in this process (as the demo's host does: it grants the commits);
// workers are real `sluice worker` processes cloning from a bare remote.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKernel } from '../../../core/index.ts';
import { builtinPlugins } from '../../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../../plugins/host-node/index.ts';
import { createLifecycleContext } from '../../../plugins/lifecycle/lifecycle-context.ts';
import { runLifecycleOnWorkers } from '../../../plugins/lifecycle/remote/run-on-workers.ts';
import { startRequirement } from '../../../plugins/lifecycle/start-requirement.ts';
import { createRedisQueue } from '../../../plugins/queue-redis/index.ts';
import { benchQueueKey } from './bench-queue-key.ts';

const spec = '.prizmkit/specs/$<slug>';
const STAGES = ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit'] as const;

function script(delayMs: number) {
  const replies: Record<(typeof STAGES)[number], object> = {
    plan: { text: 'planned', files: { [`${spec}/plan.md`]: '- [ ] [T-001] add the module\n' } },
    implement: { text: 'done', files: { 'src/$<slug>.js': 'export default "$<slug>";\n', [`${spec}/plan.md`]: '- [x] [T-001] add the module\n' } },
    'code-review': { text: '## Final Result\n\n- Verdict: PASS\n- Critical: 0\n- Major: 0\n- Minor: 0\n- Total: 0\n' },
    test: { text: 'ok', files: { [`${spec}/test-output.txt`]: 'ok 1\n', [`${spec}/verdict.json`]: '{"verdict":"TEST_PASS","evidence":["test-output.txt"]}' } },
    retrospective: { text: 'ok', files: { [`${spec}/retrospective-result.json`]: '{"result":"NO_DOC_CHANGE"}' } },
    commit: { json: { message: 'feat($<slug>): add it', paths: ['src/$<slug>.js', '.prizmkit/specs/$<slug>'] } },
  };
  return {
    version: 1,
    rules: STAGES.map((stage) => ({ match: `^Stage: ${stage}\\nRequirement: (?<slug>\\S+)\\n`, reply: { ...replies[stage], delayMs } })),
  };
}

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** A project whose `origin` is a bare repository, the delegate script committed in it. */
async function project(delayMs: number): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-bench-dist-'));
  git(root, 'init', '-q');
  git(root, 'config', 'user.name', 'bench');
  git(root, 'config', 'user.email', 'bench@sluice.invalid');
  git(root, 'config', 'commit.gpgsign', 'false');
  await writeFile(join(root, '.gitignore'), '.sluice/\n.prizmkit/state/\n');
  await writeFile(join(root, 'script.json'), JSON.stringify(script(delayMs)));
  git(root, 'add', '-A');
  git(root, 'commit', '-q', '-m', 'bench project');
  const remote = join(await mkdtemp(join(tmpdir(), 'sluice-bench-remote-')), 'project.git');
  git(root, 'clone', '-q', '--bare', root, remote);
  git(root, 'remote', 'add', 'origin', remote);
  return root;
}

export interface WorkerFleet {
  stop(): Promise<void>;
}

const WORKER = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));

/** Worker processes, each one job at a time in its own workdir; ready once each has said so; SIGTERM, then reaped. */
export async function startWorkers(url: string, count: number): Promise<WorkerFleet> {
  const children: ChildProcess[] = [];
  const stop = () =>
    Promise.all(
      children.map(
        (c) =>
          new Promise<void>((done) => {
            if (c.exitCode !== null || c.signalCode !== null) return done();
            c.once('exit', () => done());
            c.kill('SIGTERM');
            setTimeout(() => c.kill('SIGKILL'), 10_000).unref();
          }),
      ),
    ).then(() => undefined);
  try {
    for (let i = 0; i < count; i++) {
      const workdir = await mkdtemp(join(tmpdir(), 'sluice-bench-worker-'));
      const child = spawn(process.execPath, ['--import=tsx', WORKER, url, workdir], { stdio: ['ignore', 'pipe', 'inherit'] });
      children.push(child);
      await new Promise<void>((ready, failed) => {
        child.stdout!.once('data', () => ready());
        child.once('exit', (code) => failed(new Error(`bench worker exited with ${code} before it was ready`)));
      });
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { stop };
}

export interface ThroughputRun {
  workers: number;
  requirements: number;
  committed: number;
  wallMs: number;
  requirementsPerMinute: number;
}

/** One configuration: fresh project, fresh Redis database, N workers, every requirement to COMMITTED. */
export async function throughput(url: string, workers: number, requirements: number, delayMs: number): Promise<ThroughputRun> {
  const root = await project(delayMs);
  const keyDir = await mkdtemp(join(tmpdir(), 'sluice-bench-key-'));
  const keyFile = join(keyDir, 'commit-grant.key');
  await writeFile(keyFile, 'bench-grant-key-0123456789abcdef\n', { mode: 0o600 });
  const queueKey = await benchQueueKey();
  const fleet = await startWorkers(url, workers);
  const kernel = await createKernel({
    host: createNodeHost({ cwd: root }),
    projectRoot: root,
    plugins: builtinPlugins,
    dispatcher: (onProgress) => createRedisQueue({ queueKey, url, onProgress }),
  });
  try {
    const lc = createLifecycleContext(kernel, root);
    const slugs = Array.from({ length: requirements }, (_, i) => `req-${String(i).padStart(3, '0')}`);
    for (const slug of slugs) await startRequirement(lc, slug, { goal: `requirement ${slug}` });
    const hostGrant = { mode: 'bench', owner: 'sluice bench', local_commit_authorized: true as const, requirements: slugs };
    const started = performance.now();
    const summary = await runLifecycleOnWorkers(lc, {
      slugs,
      backend: 'script',
      extra: { script: 'script.json' },
      dispatcher: kernel.dispatcher,
      authorize: { hostGrant, grantKeyFile: keyFile },
    });
    const wallMs = performance.now() - started;
    const committed = summary.requirements.filter((r) => r.outcome === 'committed').length;
    if (committed !== requirements)
      throw new Error(
        `${workers} worker(s): only ${committed} of ${requirements} committed: ${JSON.stringify(summary.requirements.find((r) => r.outcome !== 'committed'))}`,
      );
    return { workers, requirements, committed, wallMs: Math.round(wallMs), requirementsPerMinute: Math.round((requirements / wallMs) * 60_000 * 10) / 10 };
  } finally {
    await kernel.dispatcher.close?.();
    await fleet.stop();
  }
}
