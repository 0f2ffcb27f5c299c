import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** Why signing tests cannot run here, or undefined when ssh-keygen with -Y support is on PATH. */
export const sshKeygenMissing: string | undefined = (() => {
  try {
    execFileSync('ssh-keygen', ['-Y', 'sign', '-?'], { stdio: 'pipe' });
  } catch (e) {
    const err = e as { code?: string; stderr?: Buffer };
    if (err.code === 'ENOENT') return 'ssh-keygen is not installed';
    if (!String(err.stderr ?? '').includes('-Y sign')) return 'ssh-keygen has no -Y sign (OpenSSH older than 8.2)';
  }
  return undefined;
})();

export interface ThrowawayKey {
  /** Private key file (no passphrase). */
  keyFile: string;
  /** One allowed_signers line for this key. */
  signersLine: string;
}

/** Generates a passphrase-less ed25519 key in `dir` (tests only) and its allowed_signers line for `principal`. */
export function throwawayKey(dir: string, name: string, principal: string): ThrowawayKey {
  const keyFile = join(dir, name);
  execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', principal, '-f', keyFile], { stdio: 'pipe' });
  const [type, key] = readFileSync(`${keyFile}.pub`, 'utf8').trim().split(/\s+/);
  return { keyFile, signersLine: `${principal} ${type} ${key}` };
}
