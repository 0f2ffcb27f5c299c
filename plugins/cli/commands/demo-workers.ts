import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { SluiceError } from '../../../core/index.ts';

export interface DemoWorker {
  pid: number;
  workdir: string;
}

export interface DemoWorkers {
  workers: DemoWorker[];
  /** SIGTERM (a worker hands back or finishes its jobs), then SIGKILL after the grace; resolves once all exited. */
  stop(): Promise<void>;
}

const READY_TIMEOUT_MS = 60_000;

/**
 * `sluice demo --queue URL` starts its own `sluice worker` processes: this same sluice (the running
 * script, with the same Node flags), each in a folder of the demo, until the demo ends. `env` adds to
 * theirs (git settings the demo's project has and its clones do not).
 */
export async function startDemoWorkers(
  url: string,
  dir: string,
  count: number,
  o: { say?(line: string): void; env?: Readonly<Record<string, string>> } = {},
): Promise<DemoWorkers> {
  const children: ChildProcess[] = [];
  const workers: DemoWorker[] = [];
  const stop = async () => {
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((done) => {
            if (child.exitCode !== null || child.signalCode !== null) return done();
            const kill = setTimeout(() => child.kill('SIGKILL'), 10_000);
            child.once('exit', () => {
              clearTimeout(kill);
              done();
            });
            child.kill('SIGTERM');
          }),
      ),
    );
  };
  try {
    for (let i = 1; i <= count; i++) {
      const workdir = join(dir, `worker-${i}`);
      await mkdir(workdir, { recursive: true });
      const child = spawn(
        process.execPath,
        [...process.execArgv, process.argv[1], 'worker', '--concurrency', '2', '--grace', '5', '--no-color', '--cwd', workdir],
        // The URL (and any password in it) in the environment, where `ps` does not show it.
        { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...o.env, NO_COLOR: '1', SLUICE_QUEUE_URL: url } },
      );
      children.push(child);
      await ready(child, url);
      workers.push({ pid: child.pid!, workdir });
      o.say?.(`worker ${i}: pid ${child.pid}, folder ${workdir}`);
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { workers, stop };
}

/** Resolves when the worker says it is ready; a worker that exits first, or says nothing in a minute, is an error. */
function ready(child: ChildProcess, url: string): Promise<void> {
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new SluiceError('DEMO_WORKER_FAILED', { message: `a demo worker for ${url} ${why}${err.trim() ? `: ${err.trim().split('\n')[0]}` : ''}` }));
    };
    const timer = setTimeout(() => fail(`did not report ready within ${READY_TIMEOUT_MS / 1000} s`), READY_TIMEOUT_MS);
    child.stderr!.on('data', (d) => (err += d));
    child.stdout!.on('data', (d) => {
      out += d;
      if (/ ready on /.test(out)) {
        clearTimeout(timer);
        // Keep reading so a chatty worker never blocks on a full pipe.
        child.stdout!.resume();
        resolve();
      }
    });
    child.once('exit', (code) => fail(`exited with code ${code}`));
  });
}
