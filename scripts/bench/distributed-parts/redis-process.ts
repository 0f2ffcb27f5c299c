// A throwaway redis-server for the distributed bench: its own folder, a free loopback port (never
// 6379), no persistence (the bench measures the queue, not the disk), stopped and reaped at the end.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface RedisProcess {
  url: string;
  stop(): Promise<void>;
}

export const REDIS_SERVER = process.env.REDIS_SERVER ?? '/usr/bin/redis-server';

/** Why the bench cannot run here, or undefined. */
export function redisMissing(): string | undefined {
  const probe = spawnSync(REDIS_SERVER, ['--version'], { encoding: 'utf8' });
  return probe.status === 0 ? undefined : `${REDIS_SERVER} is not installed (apt-get install redis-server)`;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as { port: number };
  await new Promise((done) => server.close(done));
  return port === 6379 ? freePort() : port;
}

const accepts = (port: number) =>
  new Promise<boolean>((done) => {
    const socket = createConnection({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      done(true);
    });
    socket.on('error', () => done(false));
  });

export async function startRedis(): Promise<RedisProcess> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-bench-redis-'));
  const port = await freePort();
  const child = spawn(REDIS_SERVER, ['--port', String(port), '--bind', '127.0.0.1', '--dir', dir, '--save', '', '--appendonly', 'no'], {
    stdio: 'ignore',
  });
  const exited = new Promise<void>((done) => child.once('exit', () => done()));
  for (let i = 0; !(await accepts(port)); i++) {
    if (i > 100 || child.exitCode !== null) throw new Error(`redis-server did not start on port ${port}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
