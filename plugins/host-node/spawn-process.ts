import type { SpawnOptions, SpawnResult } from '../../core/index.ts';

const DEFAULT_KILL_GRACE_MS = 2000;
/**
 * How long output may keep arriving after the process exited. Once the process is gone its pipes
 * normally close at once; a daemon it started in its own session (out of reach of the group kill)
 * can hold them open for ever, and waiting for that EOF would let it outlive any timeout.
 */
const EXIT_DRAIN_MS = 2000;

/** Process groups still running; if sluice itself exits (an error, process.exit) they go with it. */
const liveGroups = new Set<number>();
let exitHookInstalled = false;
function trackGroup(pid: number) {
  liveGroups.add(pid);
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.once('exit', () => {
    for (const group of liveGroups) {
      try {
        process.kill(-group, 'SIGKILL');
      } catch {
        // already gone
      }
    }
  });
}

/**
 * Runs a program without a shell in its own process group, streaming its output to callbacks.
 * A timeout or an abort sends SIGTERM to the whole group, then SIGKILL after a grace period; when
 * the main process exits, whatever it left behind in its group is killed too, so no orphan survives.
 */
export async function spawnProcess(o: SpawnOptions): Promise<SpawnResult> {
  const { execa } = await import('execa');
  const started = performance.now();
  let timedOut = false;
  let cancelled = false;
  let graceTimer: NodeJS.Timeout | undefined;
  const env = Object.fromEntries(Object.entries(o.env ?? {}).filter((e): e is [string, string] => e[1] !== undefined));

  const sub = execa(o.command, [...o.args], {
    cwd: o.cwd,
    env,
    extendEnv: !o.replaceEnv,
    ...(o.input === undefined ? { stdin: 'ignore' as const } : { input: o.input }),
    stdout: 'pipe',
    stderr: 'pipe',
    buffer: false,
    detached: true,
    reject: false,
    cleanup: true,
    stripFinalNewline: false,
    windowsHide: true,
  });
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
    killGroup('SIGTERM');
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
      drainTimer = setTimeout(() => resolve({ exitCode, signal }), EXIT_DRAIN_MS);
    });
  });

  const timer = o.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), terminate()), o.timeoutMs);
  const onAbort = () => ((cancelled = true), terminate());
  if (o.signal?.aborted) onAbort();
  else o.signal?.addEventListener('abort', onAbort, { once: true });

  try {
    const r = await Promise.race([sub, exited.then((e) => ({ held: true as const, ...e }))]);
    if ('held' in r) {
      sub.stdout?.destroy();
      sub.stderr?.destroy();
      sub.catch(() => {});
      return { exitCode: r.exitCode, signal: r.signal, timedOut, cancelled, durationMs: Math.round(performance.now() - started), pid, stdioHeld: true };
    }
    const code = (r as { code?: string }).code;
    const spawnError = r.failed && r.exitCode === undefined && r.signal === undefined && code ? code : undefined;
    return {
      exitCode: r.exitCode ?? null,
      signal: r.signal ?? null,
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
