import { SluiceError } from '../errors/sluice-error.ts';
import { hmacSha256Hex, sameDigest } from '../hash/sha256-hex.ts';
import type { Host } from '../host/host.ts';
import { checkPrivateFile } from '../paths/private-file.ts';
import { userFolders } from '../paths/user-folders.ts';
import { canonicalJson } from '../trust/trust-subject.ts';

/** Names the queue key file instead of the user folder's `queue.key` (a worker's service account, a test). */
export const QUEUE_KEY_ENV = 'SLUICE_QUEUE_KEY_FILE';
const MAX_KEY_BYTES = 4096;
/** 32 random bytes in hex; anything shorter than this many characters is no key. */
const MIN_KEY_CHARS = 32;

/**
 * The secret every machine of one queue shares: the orchestrator signs each job and workers sign each
 * checkpoint with it (HMAC-SHA256), so whoever can only write to Redis (or push a ref) cannot make a
 * worker run a job or an orchestrator adopt work. It lives in the person's sluice folder (or the file
 * $SLUICE_QUEUE_KEY_FILE names): never in Redis, never in a work tree.
 */
export interface QueueKey {
  readonly file: string;
  /** Hex HMAC over the canonical JSON of `value`, bound to what it is (`job`, `checkpoint`). */
  sign(purpose: string, value: unknown): string;
  verify(purpose: string, value: unknown, signature: string | undefined): boolean;
}

/** `$SLUICE_QUEUE_KEY_FILE` (absolute), else `queue.key` in sluice's user config folder. */
export function queueKeyFile(host: Host): string {
  const named = host.env(QUEUE_KEY_ENV);
  if (named && named.startsWith('/')) return named;
  return `${userFolders(host.env, host.accountHome).config}/queue.key`;
}

export function queueKeyFrom(secret: string, file: string): QueueKey {
  const mac = (purpose: string, value: unknown) => hmacSha256Hex(secret, `sluice-queue-v1\n${purpose}\n${canonicalJson(value)}`);
  return {
    file,
    sign: mac,
    verify: (purpose, value, signature) => typeof signature === 'string' && sameDigest(signature, mac(purpose, value)),
  };
}

/**
 * The key, checked as ssh checks a private key (PRIVATE_FILE_UNSAFE when others could read or write
 * it); QUEUE_KEY_MISSING naming the file when there is none.
 */
export async function readQueueKey(host: Host, file = queueKeyFile(host)): Promise<QueueKey> {
  const info = await checkPrivateFile(host, file, { what: 'the queue key', secret: true });
  if (info === null)
    throw new SluiceError('QUEUE_KEY_MISSING', { file, message: `no queue key at ${file}: jobs and checkpoints cannot be signed or verified` });
  const secret = (await host.readText(file, { maxBytes: MAX_KEY_BYTES })).trim();
  if (secret.length < MIN_KEY_CHARS || /\s/.test(secret))
    throw new SluiceError('QUEUE_KEY_MISSING', { file, message: `the queue key in ${file} is not one line of at least ${MIN_KEY_CHARS} characters` });
  return queueKeyFrom(secret, file);
}

/** Makes a new random key (0600, folders 0700) where none is; never replaces one. Returns whether it made it. */
export function createQueueKey(host: Host, file = queueKeyFile(host)): Promise<boolean> {
  const hex = Array.from(crypto.getRandomValues(new Uint8Array(32)), (b) => b.toString(16).padStart(2, '0')).join('');
  return host.writePrivate(file, `${hex}\n`, { exclusive: true });
}
