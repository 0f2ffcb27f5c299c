import type { ChildProcess } from 'node:child_process';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { reap, spawnReaped } from './reap-children.ts';

const WORKER = fileURLToPath(new URL('./lifecycle-worker.ts', import.meta.url));
const IDENTITY = { GIT_AUTHOR_NAME: 'Worker', GIT_AUTHOR_EMAIL: 'w@example.invalid', GIT_COMMITTER_NAME: 'Worker', GIT_COMMITTER_EMAIL: 'w@example.invalid' };

export type Hooks = { after(fn: () => unknown): void };

export interface TestWorker {
  child: ChildProcess;
  /** Every line it printed so far (lifecycle-worker.ts says which). */
  lines: string[];
  exited: Promise<unknown>;
}

/** One embedded worker process (lifecycle-worker.ts) with its own workdir; resolves once it listens. Reaped at teardown. */
export async function startTestWorker(t: Hooks, url: string, o: { leaseMs?: number } = {}): Promise<TestWorker> {
  const workdir = await mkdtemp(join(tmpdir(), 'sluice-worker-'));
  const child = spawnReaped(process.execPath, ['--import=tsx', WORKER, url, workdir, ...(o.leaseMs ? [String(o.leaseMs)] : [])], {
    env: { ...process.env, ...IDENTITY, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  t.after(() => reap(child));
  const lines: string[] = [];
  let err = '';
  let rest = '';
  child.stdout!.on('data', (d) => {
    const parts = (rest + d).split('\n');
    rest = parts.pop()!;
    lines.push(...parts);
  });
  child.stderr!.on('data', (d) => (err += d));
  const exited = new Promise((r) => child.once('exit', r));
  // No deadline: a worker that never gets ready fails at the file's time limit, with its stderr below.
  for (;;) {
    if (lines.includes('ready')) return { child, lines, exited };
    if (child.exitCode !== null) throw new Error(`worker exited before it was ready: ${err}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
