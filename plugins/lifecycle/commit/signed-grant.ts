import { join } from 'pathe';
import * as v from 'valibot';
import { checkPrivateFile, hmacSha256Hex, sameDigest, userFolders, type Host } from '../../../core/index.ts';
import { CommitGrantSchema } from './commit-grant.ts';

/** A signed grant is bound: to one repository (its work tree's top folder), to named requirements, until a time. */
export const SignedGrantSchema = v.object({
  ...CommitGrantSchema.entries,
  repository: v.pipe(v.string(), v.minLength(1)),
  requirements: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1, 'requirements must name at least one requirement')),
  expires_at: v.pipe(v.string(), v.isoTimestamp()),
});
export type SignedGrant = v.InferOutput<typeof SignedGrantSchema>;

/** A signing key is a line; a FIFO or a big file in its place is refused without waiting or reading it. */
const MAX_KEY_BYTES = 64 * 1024;

/**
 * Headless grants passed through the environment must be signed: `SLUICE_COMMIT_GRANT` holds
 * `<base64url(JSON grant)>.<hex HMAC-SHA256 of the first part>`. The key is read from a fixed file in the
 * operator's home (taken from the password database, not from $HOME, which a caller could change), so a
 * process that can set environment variables still cannot mint a grant. Make one with:
 *
 *   p=$(printf '%s' '{"mode":"ci","owner":"runner-7","local_commit_authorized":true,"repository":"/srv/app","requirements":["fix-42"],"expires_at":"2030-01-01T00:00:00Z"}' | basenc --base64url -w0)
 *   export SLUICE_COMMIT_GRANT="$p.$(printf '%s' "$p" | openssl dgst -sha256 -hmac "$(cat ~/.config/sluice/commit-grant.key)" -r | cut -d' ' -f1)"
 */
export const GRANT_ENV = 'SLUICE_COMMIT_GRANT';

/** In the account home's sluice folder (`userFolders().account`), where the guard and the sandboxes look too. */
export function defaultGrantKeyFile(host: Host): string {
  return join(userFolders(host.env, host.accountHome).account, 'commit-grant.key');
}

export function signCommitGrant(grant: SignedGrant, key: string | Uint8Array): string {
  const payload = toBase64Url(new TextEncoder().encode(JSON.stringify(grant)));
  return `${payload}.${hmacSha256Hex(key, payload)}`;
}

/** base64url without padding (RFC 4648 §5), through the web's btoa/atob: no Node Buffer in a workflow. */
const toBase64Url = (bytes: Uint8Array) =>
  btoa(Array.from(bytes, (b) => String.fromCharCode(b)).join(''))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
/** Padded (`basenc --base64url`) or not; throws on what is not base64url. */
const fromBase64Url = (text: string) => Uint8Array.from(atob(text.replace(/-/g, '+').replace(/_/g, '/')), (c) => c.charCodeAt(0));

const randomHex = (bytes: number) => Array.from(crypto.getRandomValues(new Uint8Array(bytes)), (b) => b.toString(16).padStart(2, '0')).join('');

/**
 * Makes a random key (mode 0600) where none is; an existing file is never replaced. Returns whether it
 * made one. For code that both signs and verifies on this machine (`sluice demo --queue`).
 */
export function createGrantKeyIfMissing(host: Host, keyFile: string): Promise<boolean> {
  return host.writePrivate(keyFile, `${randomHex(32)}\n`, { exclusive: true });
}

/**
 * The signing key (its trailing newline from `echo` removed), or null when it cannot be read. A key
 * someone else could have written or read (group/world-writable or -readable, another owner, a
 * folder others can write) is refused as ssh refuses such a key: PRIVATE_FILE_UNSAFE (exit 2).
 */
export async function readGrantKey(host: Host, keyFile: string): Promise<string | null> {
  await checkPrivateFile(host, keyFile, { what: 'the commit-grant key', secret: true });
  try {
    return (await host.readText(keyFile, { maxBytes: MAX_KEY_BYTES })).replace(/\r?\n$/, '');
  } catch {
    return null;
  }
}

/** The grant, or the reason it is refused. The key's trailing newline (from `echo`) is ignored. */
export async function verifySignedGrant(host: Host, value: string, keyFile: string): Promise<{ grant: SignedGrant } | { refused: string }> {
  const [payload, signature, extra] = value.trim().split('.');
  if (!payload || !signature || extra !== undefined) return { refused: `${GRANT_ENV} is not "<payload>.<signature>"` };
  const key = await readGrantKey(host, keyFile);
  if (key === null) return { refused: `${GRANT_ENV} cannot be verified: no key at ${keyFile}` };
  if (key.length < 16) return { refused: `the key in ${keyFile} is shorter than 16 characters` };
  if (!sameDigest(signature, hmacSha256Hex(key, payload))) return { refused: `${GRANT_ENV} has an invalid signature` };
  return decodeGrantPayload(payload);
}

/**
 * A grant's statement, read without its signature: only for a grant that arrived inside something
 * already authenticated (a queue job signed with the queue key), so a worker needs no commit-grant key.
 */
export function readGrantStatement(value: string): { grant: SignedGrant } | { refused: string } {
  const [payload, signature, extra] = value.trim().split('.');
  if (!payload || !signature || extra !== undefined) return { refused: `${GRANT_ENV} is not "<payload>.<signature>"` };
  return decodeGrantPayload(payload);
}

function decodeGrantPayload(payload: string): { grant: SignedGrant } | { refused: string } {
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(fromBase64Url(payload)));
  } catch {
    return { refused: `${GRANT_ENV} payload is not JSON` };
  }
  const parsed = v.safeParse(SignedGrantSchema, raw);
  if (!parsed.success) return { refused: `${GRANT_ENV} payload field ${v.getDotPath(parsed.issues[0]) ?? ''}: ${parsed.issues[0].message}` };
  return { grant: parsed.output };
}
