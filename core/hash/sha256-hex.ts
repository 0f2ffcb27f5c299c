import { hmac } from '@noble/hashes/hmac';
import { sha256 } from '@noble/hashes/sha2';
import { bytesToHex, hexToBytes } from '@noble/hashes/utils';

/**
 * Synchronous SHA-256 for every platform (Node, Deno, the in-memory test host), through @noble/hashes
 * (audited, no dependencies) rather than node:crypto, which core and the workflows do not import.
 * It is about four times slower than Node's native hash: fine for records, statements and cache keys;
 * a file's contents are hashed with `Host.sha256`, which a host may do natively.
 */
export const sha256Hex = (data: string | Uint8Array): string => bytesToHex(sha256(data));

/** HMAC-SHA256 of `message` under `key` (UTF-8 text or bytes), in hex. */
export const hmacSha256Hex = (key: string | Uint8Array, message: string | Uint8Array): string => bytesToHex(hmac(sha256, key, message));

/**
 * Whether two hex digests are equal, in time that does not depend on where they first differ (a
 * signature check must not tell a guesser how many leading characters were right). Not hex: false.
 */
export function sameDigest(a: string, b: string): boolean {
  let x: Uint8Array;
  let y: Uint8Array;
  try {
    x = hexToBytes(a);
    y = hexToBytes(b);
  } catch {
    return false;
  }
  if (x.length !== y.length) return false;
  let diff = 0;
  for (let i = 0; i < x.length; i++) diff |= x[i] ^ y[i];
  return diff === 0;
}
