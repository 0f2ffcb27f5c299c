import { execFileSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connect } from 'node:tls';
import { freePort, redisServerMissing } from './redis-server.ts';
import { reap, spawnReaped } from './reap-children.ts';

/**
 * A redis-server of the test's own that speaks only TLS (`--port 0 --tls-port P`) and wants a password,
 * with a CA and a server certificate for 127.0.0.1 made here by `openssl req`. Reaped in teardown.
 */
export interface TlsRedis {
  /** `rediss://:PASSWORD@127.0.0.1:P/0` */
  url: string;
  password: string;
  port: number;
  /** The CA file a client must trust. */
  caFile: string;
  beforeStop(fn: () => unknown): void;
}

const binary = process.env.SLUICE_REDIS_SERVER ?? 'redis-server';

/** Why a TLS Redis cannot run here (no redis-server, no openssl), or undefined. */
export function tlsRedisMissing(): string | undefined {
  const missing = redisServerMissing();
  if (missing) return missing;
  try {
    execFileSync('openssl', ['version'], { stdio: 'pipe' });
  } catch {
    return 'openssl is not installed (the test makes its certificates with it)';
  }
  // A redis-server built without TLS exits at start, saying so (startTlsRedisServer throws).
  return undefined;
}

export async function startTlsRedisServer(t: { after(fn: () => unknown): void }): Promise<TlsRedis> {
  const dir = mkdtempSync(join(tmpdir(), 'sluice-tls-redis-'));
  const file = (name: string) => join(dir, name);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
  openssl('req', '-x509', ...ec, '-keyout', 'ca.key', '-out', 'ca.crt', '-days', '2', '-subj', '/CN=sluice test CA');
  openssl('req', ...ec, '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=127.0.0.1');
  writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    'server.csr',
    '-CA',
    'ca.crt',
    '-CAkey',
    'ca.key',
    '-CAcreateserial',
    '-out',
    'server.crt',
    '-days',
    '2',
    '-extfile',
    'san.ext',
  );
  const port = await freePort();
  const password = `pw-${Math.random().toString(36).slice(2)}-secret`;
  const child: ChildProcess = spawnReaped(
    binary,
    [
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--bind',
      '127.0.0.1',
      '--tls-cert-file',
      file('server.crt'),
      '--tls-key-file',
      file('server.key'),
      '--tls-ca-cert-file',
      file('ca.crt'),
      '--tls-auth-clients',
      'no',
      '--requirepass',
      password,
      '--dir',
      dir,
      '--save',
      '',
      '--appendonly',
      'yes',
    ],
    { stdio: 'ignore' },
  );
  const closers: (() => unknown)[] = [];
  t.after(async () => {
    for (const fn of closers.reverse()) await fn();
    reap(child);
    rmSync(dir, { recursive: true, force: true });
  });
  const ca = readFileSync(file('ca.crt'));
  for (;;) {
    if (child.exitCode !== null) throw new Error(`redis-server --tls-port ${port} exited (${child.exitCode}): built without TLS?`);
    if (await answers(port, ca)) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  return { url: `rediss://:${password}@127.0.0.1:${port}/0`, password, port, caFile: file('ca.crt'), beforeStop: (fn) => void closers.push(fn) };
}

/** Whether a TLS handshake (with the CA) succeeds on the port. */
function answers(port: number, ca: Buffer): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port, ca }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}
