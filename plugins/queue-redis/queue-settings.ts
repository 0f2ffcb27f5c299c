import * as v from 'valibot';
import { checkPrivateFile, SluiceError, userFolders, yamlLibrary, type Host } from '../../core/index.ts';
import { isLoopback, type QueueTls, type RedisTarget } from './redis-url.ts';

/**
 * What the person sets for the queue on this machine, in their own sluice config (never the project's):
 *
 *   queue:
 *     tls:                          # for rediss:// URLs
 *       ca: /etc/sluice/queue-ca.pem
 *       cert: ~/.config/sluice/queue-client.pem   # optional client certificate
 *       key: ~/.config/sluice/queue-client.key    # and its key (owner-only)
 *     allow_insecure: true          # only to accept a redis:// URL of another machine without password and TLS
 */
const QueueUserSchema = v.looseObject({
  queue: v.optional(
    v.looseObject({
      tls: v.optional(v.strictObject({ ca: v.optional(v.string()), cert: v.optional(v.string()), key: v.optional(v.string()) })),
      allow_insecure: v.optional(v.boolean()),
    }),
  ),
});

export interface QueueSettings {
  tls: QueueTls;
  allowInsecure: boolean;
}

/** `config.yaml` in sluice's user config folder. */
export const queueSettingsFile = (host: Host) => `${userFolders(host.env, host.accountHome).config}/config.yaml`;

/** The settings above, with the certificate files read (a client key must be owner-only); none when there is no file. */
export async function readQueueSettings(host: Host, file = queueSettingsFile(host)): Promise<QueueSettings> {
  if (!(await checkPrivateFile(host, file, { what: 'the user config' }))) return { tls: {}, allowInsecure: false };
  const parsed = v.safeParse(QueueUserSchema, yamlLibrary().parse(await host.readText(file, { maxBytes: 1024 * 1024 })) ?? {});
  if (!parsed.success)
    throw new SluiceError('CONFIG_INVALID', { file, field: v.getDotPath(parsed.issues[0]) ?? 'queue', message: `${file}: ${parsed.issues[0].message}` });
  const q = parsed.output.queue ?? {};
  const home = host.env('HOME') ?? host.accountHome();
  const read = async (path: string | undefined, field: string, secret = false) => {
    if (path === undefined) return undefined;
    const full = path.startsWith('~/') ? `${home}/${path.slice(2)}` : path;
    if (secret) await checkPrivateFile(host, full, { what: `queue.tls.${field}`, secret: true });
    try {
      return await host.readText(full, { maxBytes: 1024 * 1024 });
    } catch (error) {
      throw new SluiceError('CONFIG_INVALID', { file, field: `queue.tls.${field}`, message: `cannot read ${full}: ${(error as Error).message}` });
    }
  };
  const tls: QueueTls = {};
  const ca = await read(q.tls?.ca, 'ca');
  const cert = await read(q.tls?.cert, 'cert');
  const key = await read(q.tls?.key, 'key', true);
  if (ca) tls.ca = ca;
  if (cert) tls.cert = cert;
  if (key) tls.key = key;
  return { tls, allowInsecure: q.allow_insecure === true };
}

/**
 * Whoever can write to the queue's Redis can fill it with jobs (which workers refuse unsigned) and read
 * every job's payload, so a Redis on another machine needs both a password and TLS (a password over plain
 * TCP is readable on the wire): refused without, unless the person allowed it. On this machine only its
 * users can reach it: one warning.
 */
export function checkTransport(target: RedisTarget, settings: QueueSettings): string | undefined {
  if (target.password !== undefined && target.tls) return undefined;
  const missing = [target.password === undefined ? 'no password' : '', target.tls ? '' : 'no TLS'].filter(Boolean).join(' and ');
  if (isLoopback(target.host))
    return target.password === undefined
      ? `the queue ${target.display} has no password: every user of this machine can read its jobs and queue their own (workers refuse unsigned jobs)`
      : undefined;
  if (settings.allowInsecure) return `the queue ${target.display} has ${missing} (allowed by queue.allow_insecure in your user config)`;
  throw new SluiceError('QUEUE_URL_INSECURE', {
    message: `the queue ${target.display} is on another machine with ${missing}: anyone on the network could read its jobs or the password`,
  });
}
