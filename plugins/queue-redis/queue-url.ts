import { checkPrivateFile, SluiceError, type Host, type Kernel } from '../../core/index.ts';
import { readQueueSettings } from './queue-settings.ts';
import { redactUrl, type QueueTls } from './redis-url.ts';

/** The queue URL (its password too) without a command line `ps` shows: the environment, or a file. */
export const QUEUE_URL_ENV = 'SLUICE_QUEUE_URL';
/** Just the password, for a URL that names none (`redis[s]://HOST:PORT/DB` in the config, the secret apart). */
export const QUEUE_PASSWORD_ENV = 'SLUICE_QUEUE_PASSWORD';

export interface QueueUrlSources {
  /** `--queue URL` */
  flag?: string;
  /** `--queue-file FILE`: one line, owner-only. */
  file?: string;
  /** `queue:` of the project config, and how messages name it. */
  config?: string;
  configWhat: string;
}

/**
 * Where the queue is, from the first source set: `--queue`, `--queue-file`, $SLUICE_QUEUE_URL, the
 * project config; a password from $SLUICE_QUEUE_PASSWORD fills a URL without one. Undefined: no queue
 * (in-process). A password typed on the command line is refused: `ps` shows it to everyone.
 */
export async function resolveQueueUrl(host: Host, s: QueueUrlSources): Promise<{ url: string; what: string; warnings: string[] } | undefined> {
  const warnings: string[] = [];
  let found: { url: string; what: string } | undefined;
  if (s.flag !== undefined) {
    // A password on the command line is readable by every user of the machine (`ps`): refused, before it is used.
    if (/^\w+:\/\/[^@/]*:[^@/]+@/.test(s.flag))
      throw new SluiceError('USAGE', {
        field: '--queue',
        message: `--queue ${redactUrl(s.flag)} puts the queue's password on the command line, where ps shows it: use --queue-file FILE, ${QUEUE_URL_ENV} or ${QUEUE_PASSWORD_ENV}`,
      });
    found = { url: s.flag, what: '--queue' };
  } else if (s.file !== undefined) {
    if (!(await checkPrivateFile(host, s.file, { what: 'the queue URL file', secret: true })))
      throw new SluiceError('FILE_NOT_FOUND', { file: s.file, field: '--queue-file', message: `--queue-file ${s.file} does not exist` });
    found = { url: (await host.readText(s.file, { maxBytes: 8192 })).trim(), what: `--queue-file ${s.file}` };
  } else if (host.env(QUEUE_URL_ENV)) found = { url: host.env(QUEUE_URL_ENV)!.trim(), what: QUEUE_URL_ENV };
  else if (s.config !== undefined) found = { url: s.config, what: s.configWhat };
  if (!found) return undefined;
  const password = host.env(QUEUE_PASSWORD_ENV);
  return { url: password ? withPassword(found.url, password) : found.url, what: found.what, warnings };
}

/** The URL with `password` in it, unless it has one already (then the URL's wins). */
function withPassword(text: string, password: string): string {
  try {
    const url = new URL(text);
    if (url.password !== '') return text;
    url.password = encodeURIComponent(password);
    return url.toString().replace(/\/$/, '');
  } catch {
    // Not a URL: parseRedisUrl says so, naming where it came from.
    return text;
  }
}

/** The queue a command works on (the CLI resolved it into the config) and the TLS files of the user config. */
export async function requireQueue(kernel: Kernel, command: string): Promise<{ url: string; tls: QueueTls }> {
  const url = kernel.config.queue;
  if (url === undefined)
    throw new SluiceError('USAGE', {
      message: `${command} needs a queue: ${QUEUE_URL_ENV}=redis[s]://HOST:PORT[/DB] in its environment, --queue-file FILE, or queue: in sluice.config.yaml`,
    });
  return { url, tls: (await readQueueSettings(kernel.host)).tls };
}
