import type { ChildProcess } from 'node:child_process';
import { reap, spawnReaped } from './reap-children.ts';

/** A `sluice worker` process started by a test: its output so far, and ways to end it. */
export interface WorkerProcess {
  child: ChildProcess;
  /** Resolves once the worker printed its `ready` line (it listens on the queue from then on). */
  ready: Promise<void>;
  stdout(): string;
  stderr(): string;
  /** Resolves with the exit code (or signal name) once the process ended. */
  exited: Promise<number | string>;
  /** Resolves once stdout holds a line matching `pattern`. */
  printed(pattern: RegExp): Promise<void>;
}

/**
 * Starts `sluice worker` (the bundle `bin`, run by plain node) in `cwd` with extra arguments; reaped
 * (SIGKILL) in teardown, and before the test's Redis stops when `beforeStop` is given.
 */
export function startWorkerProcess(
  t: { teardown?(fn: () => unknown): void; after?(fn: () => unknown): void },
  o: { bin: string; cwd: string; url: string; args?: string[]; env?: Record<string, string> },
): WorkerProcess {
  // The URL as a deployment passes it: in the environment, never on a command line `ps` shows.
  const child = spawnReaped(process.execPath, [o.bin, 'worker', ...(o.args ?? [])], {
    cwd: o.cwd,
    env: { ...process.env, NO_COLOR: '1', SLUICE_QUEUE_URL: o.url, ...o.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  (t.teardown ?? t.after)!.call(t, () => reap(child));
  let out = '';
  let err = '';
  const waiters: { pattern: RegExp; resolve(): void }[] = [];
  const exited = new Promise<number | string>((resolve) => child.once('exit', (code, signal) => resolve(code ?? signal ?? 'unknown')));
  child.stdout!.on('data', (d) => {
    out += d;
    for (const w of [...waiters]) if (w.pattern.test(out)) waiters.splice(waiters.indexOf(w), 1), w.resolve();
  });
  child.stderr!.on('data', (d) => (err += d));
  const printed = (pattern: RegExp) =>
    new Promise<void>((resolve, reject) => {
      if (pattern.test(out)) return resolve();
      waiters.push({ pattern, resolve });
      void exited.then((code) => reject(new Error(`worker exited (${code}) before printing ${pattern}\n${out}\n${err}`)));
    });
  return { child, ready: printed(/^sluice worker \S+ ready/m), stdout: () => out, stderr: () => err, exited, printed };
}
