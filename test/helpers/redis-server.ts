import { spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { reap, spawnReaped } from './reap-children.ts';

/**
 * A real redis-server of the test's own, on a free loopback port, with its append-only file on (so a
 * restart loses nothing, as the "Redis restarted mid-run" asks). Reaped in teardown.
 */
export interface TestRedis {
  url: string;
  port: number;
  dir: string;
  /** Stops the server (SIGTERM: it flushes the AOF) and starts it again on the same port and files. */
  restart(): Promise<void>;
  stop(): Promise<void>;
  /** Runs `fn` at teardown while the server still answers (close clients, stop workers); last added runs first. */
  beforeStop(fn: () => unknown): void;
}

const binary = process.env.SLUICE_REDIS_SERVER ?? 'redis-server';

/** Why Redis tests cannot run here, or undefined when they can. */
export function redisServerMissing(): string | undefined {
  const probe = spawnSync(binary, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `redis-server is not installed (apt-get install redis-server; or set SLUICE_REDIS_SERVER)`;
}

export async function startRedisServer(t: { teardown?(fn: () => unknown): void; after?(fn: () => unknown): void }): Promise<TestRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-redis-'));
  const port = await freePort();
  let child: ChildProcess | undefined;
  const start = async () => {
    child = spawnReaped(
      binary,
      ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--appendonly', 'yes', '--appendfsync', 'always', '--save', '', '--protected-mode', 'no'],
      { stdio: 'ignore' },
    );
    await untilAnswers(port, child);
  };
  const stop = async () => {
    const c = child;
    child = undefined;
    if (!c || c.exitCode !== null || c.signalCode !== null) return;
    const exited = new Promise((r) => c.once('exit', r));
    c.kill('SIGTERM');
    await exited;
  };
  await start();
  const closers: (() => unknown)[] = [];
  (t.teardown ?? t.after)!.call(t, async () => {
    for (const fn of closers.reverse()) await fn();
    if (child) reap(child);
    child = undefined;
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    url: `redis://127.0.0.1:${port}/0`,
    port,
    dir,
    async restart() {
      await stop();
      await start();
    },
    stop,
    beforeStop: (fn) => void closers.push(fn),
  };
}

/** A TCP port nobody listens on now (the kernel picks it; never 6379). */
export async function freePort(): Promise<number> {
  for (;;) {
    const port = await new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => {
        const { port } = server.address() as { port: number };
        server.close(() => resolve(port));
      });
    });
    if (port !== 6379) return port;
  }
}

/** Resolves once the server answers PING; rejects if it exits first. */
async function untilAnswers(port: number, child: ChildProcess): Promise<void> {
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`redis-server on port ${port} exited (${child.exitCode ?? child.signalCode})`);
    if (await pings(port)) return;
    await new Promise((r) => setTimeout(r, 25));
  }
}

function pings(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let answer = '';
    socket.once('error', () => resolve(false));
    socket.on('data', (d) => {
      answer += d.toString();
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.startsWith('+PONG'));
      }
    });
    socket.once('connect', () => socket.write('PING\r\n'));
  });
}
