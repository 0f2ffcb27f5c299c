import { spawn } from 'node:child_process';
import type { SpawnOptions, SpawnResult } from '../../core/index.ts';
import { groupMembersExcept, sandboxCommand, signalFromExit, type FoundSandbox } from './os-sandbox.ts';

const DEFAULT_KILL_GRACE_MS = 2000;
/**
 * How long output may keep arriving after the process exited. Once the process is gone its pipes
 * normally close at once; a daemon it started in its own session (out of reach of the group kill)
 * can hold them open for ever, and waiting for that EOF would let it outlive any timeout.
 */
const EXIT_DRAIN_MS = 2000;

/** Process groups still running; if sluice itself ends (exit, or a signal nobody handles) they go with it. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function killLiveGroups() {
  for (const group of liveGroups) {
    try {
      process.kill(-group, 'SIGKILL');
    } catch {
      // already gone
    }
  }
}
function trackGroup(pid: number) {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  // On exit at once; signal-exit (as execa's `cleanup` used it) adds the SIGINT/SIGTERM no handler of
  // sluice's takes, once loaded. Killing a group twice is harmless.
  process.once('exit', killLiveGroups);
  import('signal-exit').then(({ onExit }) => onExit(killLiveGroups)).catch(() => {});
}

function signalProcess(pid: number, signal: NodeJS.Signals) {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

/**
 * Runs a program without a shell in its own process group, streaming its output to callbacks.
 * A timeout or an abort sends SIGTERM to the whole group, then SIGKILL after a grace period; when
 * the main process exits, whatever it left behind in its group is killed too, so no orphan survives.
 * Node's own spawn, not execa: with output streamed (never buffered) execa added ~2 ms of CPU per
 * call, and a lifecycle requirement runs ~55 git processes. With `o.sandbox` (and the host's `sandbox`)
 * the program runs in the OS sandbox, with the same group, timeout and signal behaviour.
 */
export async function spawnProcess(o: SpawnOptions, sandbox?: FoundSandbox | null): Promise<SpawnResult> {
  const started = performance.now();
  if (o.sandbox && !sandbox)
    return { exitCode: null, signal: null, timedOut: false, cancelled: false, durationMs: 0, spawnError: 'no OS sandbox on this machine' };
  const { command, args } = o.sandbox && sandbox ? sandboxCommand(sandbox, o.sandbox, o) : o;
  const bwrap = o.sandbox !== undefined && sandbox?.kind === 'bubblewrap';
  let timedOut = false;
  let cancelled = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const extra = Object.fromEntries(Object.entries(o.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined));
  const env = o.replaceEnv ? extra : { ...process.env, ...extra };

  let spawnError: string | undefined;
  const sub = spawn(command, [...args], {
    cwd: o.cwd,
    env,
    stdio: [o.input === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
    detached: true,
    windowsHide: true,
  });
  // A program that could not start (ENOENT, EACCES) reports it here, before 'close'.
  sub.on('error', (error: NodeJS.ErrnoException) => {
    if (sub.pid === undefined) spawnError = error.code ?? error.message;
  });
  if (o.input !== undefined && sub.stdin) {
    // A program that exits without reading its input closes the pipe: not an error of ours.
    sub.stdin.on('error', () => {});
    sub.stdin.end(o.input);
  }
  const pid = sub.pid;
  if (pid !== undefined) trackGroup(pid);

  const killGroup = (signal: NodeJS.Signals) => {
    if (pid === undefined) return;
    try {
      process.kill(-pid, signal);
    } catch {
      // ESRCH: the group is already gone.
    }
  };
  const terminate = () => {
    // In bubblewrap, SIGTERM goes to the CLI's processes, not bwrap (see groupMembersExcept); SIGKILL to all.
    const members = bwrap && pid !== undefined ? groupMembersExcept(pid, pid) : undefined;
    if (members && members.length > 0) for (const member of members) signalProcess(member, 'SIGTERM');
    else killGroup('SIGTERM');
    graceTimer ??= setTimeout(() => killGroup('SIGKILL'), o.killGraceMs ?? DEFAULT_KILL_GRACE_MS);
  };

  sub.stdout?.on('data', (chunk: Buffer) => o.onStdout?.(chunk));
  sub.stderr?.on('data', (chunk: Buffer) => o.onStderr?.(chunk));
  // Grandchildren holding the pipes open would keep us waiting forever; clear the group on exit,
  // and stop reading pipes that something outside the group still holds (see EXIT_DRAIN_MS).
  let drainTimer: NodeJS.Timeout | undefined;
  const exited = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) => {
    sub.once('exit', (exitCode, signal) => {
      killGroup('SIGKILL');
      if (pid !== undefined) liveGroups.delete(pid);
      // The wait ends on a turn of the loop that has polled I/O (setImmediate runs after the poll phase):
      // if the loop was stalled past the timer, output already in the pipe is read before we stop reading.
      drainTimer = setTimeout(() => setImmediate(() => resolve({ exitCode, signal })), EXIT_DRAIN_MS);
    });
  });

  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), terminate()), o.timeoutMs);
  const onAbort = () => ((cancelled = true), terminate());
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });

  const closed = new Promise<{ exitCode: number | null; signal: string | null }>((resolve) =>
    sub.once('close', (exitCode, signal) => resolve({ exitCode, signal })),
  );
  try {
    const r = await Promise.race([closed, exited.then((e) => ({ held: true as const, ...e }))]);
    // Both pipes at EOF means the output is complete even if their 'close' has not come yet.
    const outputEnded = (sub.stdout?.readableEnded ?? true) && (sub.stderr?.readableEnded ?? true);
    if ('held' in r && !outputEnded) {
      sub.stdout?.destroy();
      sub.stderr?.destroy();
      return { exitCode: r.exitCode, signal: r.signal, timedOut, cancelled, durationMs: Math.round(performance.now() - started), pid, stdioHeld: true };
    }
    const killedInside = bwrap && r.signal === null ? signalFromExit(r.exitCode) : null;
    return {
      exitCode: spawnError || killedInside ? null : r.exitCode,
      signal: spawnError ? null : (killedInside ?? r.signal),
      timedOut,
      cancelled,
      durationMs: Math.round(performance.now() - started),
      pid,
      ...(spawnError ? { spawnError } : {}),
    };
  } finally {
    clearTimeout(timer);
    clearTimeout(graceTimer);
    clearTimeout(drainTimer);
    o.signal?.removeEventListener('abort', onAbort);
  }
}
