import { SluiceError } from '../../core/index.ts';

/** Where the queue lives, parsed from `redis://[:PASSWORD@]HOST:PORT[/DB]`. */
export interface RedisTarget {
  host: string;
  port: number;
  db: number;
  password?: string;
  username?: string;
  /** The URL as messages show it (never the password). */
  display: string;
}

/** Parses a queue URL; `what` names where it came from (`--queue`, `sluice.config.yaml field queue`). */
export function parseRedisUrl(text: string, what = '--queue'): RedisTarget {
  const bad = (why: string) => new SluiceError('QUEUE_URL_INVALID', { message: `${what} ${JSON.stringify(redactUrl(text))}: ${why}` });
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw bad('not a URL; expected redis://HOST:PORT[/DB]');
  }
  if (url.protocol !== 'redis:') throw bad(`scheme ${url.protocol} is not redis:`);
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
  return { host, port, db, password, username, display: `redis://${url.hostname}:${port}/${db}` };
}

/** A URL with its password replaced, for messages. */
export function redactUrl(text: string): string {
  return text.replace(/^(\w+:\/\/[^:@/]*:)[^@/]*@/, '$1***@');
}
