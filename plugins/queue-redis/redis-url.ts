import { SluiceError } from '../../core/index.ts';

/** PEM text of the certificates a `rediss://` connection uses (queue-settings.ts reads them from the user config). */
export interface QueueTls {
  /** The CA that signed the server's certificate (else the system's CAs). */
  ca?: string;
  /** A client certificate and its key, for a server that asks for one (`tls-auth-clients`). */
  cert?: string;
  key?: string;
}

/** Where the queue lives, parsed from `redis[s]://[:PASSWORD@]HOST:PORT[/DB]`. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  password?: string;
  username?: string;
  /** Set for `rediss://`: the connection is TLS, verified against `ca` (or the system's CAs). */
  tls?: QueueTls;
  /** The URL as messages show it (never the password). */
  display: string;
}

/** Parses a queue URL; `what` names where it came from (`--queue`, `SLUICE_QUEUE_URL`, `sluice.config.yaml field queue`). */
export function parseRedisUrl(text: string, what = '--queue', tls: QueueTls = {}): RedisTarget {
  const bad = (why: string) => new SluiceError('QUEUE_URL_INVALID', { message: `${what} ${JSON.stringify(redactUrl(text))}: ${why}` });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad('not a URL; expected redis://HOST:PORT[/DB] or rediss://HOST:PORT[/DB]');
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') throw bad(`scheme ${url.protocol} is not redis: or rediss:`);
  if (url.hostname === '') throw bad('the host is missing');
  const port = url.port === '' ? 6379 : Number(url.port);
  const path = url.pathname.replace(/^\/|\/$/g, '');
  if (!/^\d{0,2}$/.test(path)) throw bad(`the database ${JSON.stringify(path)} is not a number from 0 to 15`);
  const db = path === '' ? 0 : Number(path);
  if (db > 15) throw bad(`the database ${db} is not a number from 0 to 15`);
  if (url.search !== '' || url.hash !== '') throw bad('query and fragment are not supported');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  const password = url.password === '' ? undefined : decodeURIComponent(url.password);
  const username = url.username === '' ? undefined : decodeURIComponent(url.username);
  const scheme = url.protocol.slice(0, -1);
  return {
    host,
    port,
    db,
    password,
    username,
    ...(scheme === 'rediss' ? { tls } : {}),
    display: `${scheme}://${url.hostname}:${port}/${db}`,
  };
}

/** A URL with its password replaced, for messages. */
export function redactUrl(text: string): string {
  return text.replace(/^(\w+:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}

/** Whether the host is this machine (only local users can reach it). */
export function isLoopback(host: string): boolean {
  return host === 'localhost' || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}
