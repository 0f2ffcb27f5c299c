import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * Every process a test starts is reaped, whatever ends the test: each child runs in its own
 * process group (so a fake CLI's grandchildren go with it), and the groups still alive are
 * SIGKILLed when a test ends (`reapAfter`), when the test process exits, and when it is told to
 * stop (tap's timeout sends SIGTERM, then SIGKILL; Ctrl-C sends SIGINT). A timed-out test used to
 * leave its sluice and fake CLI running for minutes after the suite had ended.
 */
const live = new Set<ChildProcess>();
let installed = false;

/** `child_process.spawn`, in a new process group that is killed when the test process ends. */
export function spawnReaped(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(...withoutTapLoader(command, args, options), { ...options, detached: true });
  return track(child);
}

/**
 * tap adds its process-info loader to NODE_OPTIONS of every process a test starts, after the
 * environment is handed over (it hooks spawn). It only records which files a process loaded, for
 * coverage, which is off; in each node process it costs about as much CPU as starting the bundled
 * CLI itself, and this suite starts thousands. A node or shell child therefore starts through `env`
 * with NODE_OPTIONS as it was minus tap's loader (`env` execs the command: same pid and group).
 */
function withoutTapLoader(command: string, args: readonly string[], options: SpawnOptions): [string, string[]] {
  // tap hooks spawn whenever its loader runs in this process, also for a child given NODE_OPTIONS of its own.
  if (!process.env.NODE_OPTIONS?.includes('@tapjs/processinfo') || !(command === process.execPath || command === 'sh')) return [command, [...args]];
  const nodeOptions = options.env?.NODE_OPTIONS ?? process.env.NODE_OPTIONS;
  const kept = (nodeOptions ?? '')
    .split(/\s+/)
    .filter((o) => o && !o.includes('@tapjs/processinfo'))
    .join(' ');
  return ['env', [...(kept ? [`NODE_OPTIONS=${kept}`] : ['-u', 'NODE_OPTIONS']), command, ...args]];
}

/** Registers a child started elsewhere; with `detached: true` its whole group is killed. */
export function track<C extends ChildProcess>(child: C): C {
  install();
  if (child.pid === undefined) return child;
  live.add(child);
  child.once('exit', () => live.delete(child));
  return child;
}

/** Kills one child's group now (SIGKILL): for test teardown. */
export function reap(child: ChildProcess): void {
  killGroup(child);
  live.delete(child);
}

/** Kills every child still alive: for `after`/`t.after` hooks. */
export function reapAll(): void {
  for (const child of [...live]) reap(child);
}

/** A node:test or tap context's teardown hook, reaping `child` when the test ends. */
export function reapAfter(t: { after?(fn: () => void): void; teardown?(fn: () => void): void }, child: ChildProcess): ChildProcess {
  (t.after ?? t.teardown)!.call(t, () => reap(child));
  return child;
}

function killGroup(child: ChildProcess): void {
  if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) {
    // The leader is gone, but grandchildren may still hold its group.
    if (child.pid !== undefined) tryKill(-child.pid);
    return;
  }
  if (!tryKill(-child.pid)) tryKill(child.pid);
}

function tryKill(pid: number): boolean {
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

function install(): void {
  if (installed) return;
  installed = true;
  process.once('exit', reapAll);
  for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
    process.once(signal, () => {
      reapAll();
      // The default action, now that our listener is gone: the test process still ends by this signal.
      process.kill(process.pid, signal);
    });
  }
}
