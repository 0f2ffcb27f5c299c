import { SluiceError, type Host } from '../../../core/index.ts';

/**
 * Signing and verifying text with SSH keys through `ssh-keygen -Y`, the mechanism git uses for
 * SSH-signed commits: a person's existing key signs, an `allowed_signers` file (git's format) says
 * whose keys count. The namespace keeps a sluice signature from being replayed as a git or file
 * signature, and the other way round.
 */
export const SIGNATURE_NAMESPACE = 'sluice';

const SSH_KEYGEN = 'ssh-keygen';
const TIMEOUT_MS = 30_000;

export interface SignRequest {
  /** Private key file, or a public key whose private half is in ssh-agent (as git's user.signingkey). */
  keyFile: string;
  text: string;
  namespace?: string;
}

export interface VerifyRequest {
  /** Path of an allowed_signers file. */
  allowedSigners: string;
  text: string;
  /** The armored signature (`-----BEGIN SSH SIGNATURE-----`). */
  signature: string;
  namespace?: string;
  /** Folder for the short-lived signature file ssh-keygen reads (default: $TMPDIR or /tmp). */
  tempDir?: string;
}

export type VerifyOutcome =
  /** The signature is good and its key belongs to `principal` in allowed_signers. */
  | { status: 'valid'; principal: string; fingerprint?: string }
  /** The signature is good for the text, but its key is not in allowed_signers. */
  | { status: 'unknown-signer'; fingerprint?: string; detail: string }
  /** The signature does not match the text (tampered, other namespace, or not a signature). */
  | { status: 'invalid'; detail: string };

interface Captured {
  code: number | null;
  stdout: string;
  stderr: string;
}

async function sshKeygen(host: Host, args: string[], input: string): Promise<Captured> {
  const out: Uint8Array[] = [];
  const err: Uint8Array[] = [];
  const r = await host.spawn({ command: SSH_KEYGEN, args, input, timeoutMs: TIMEOUT_MS, onStdout: (c) => out.push(c), onStderr: (c) => err.push(c) });
  if (r.spawnError) throw new SluiceError('SIGNING_UNAVAILABLE', { message: `cannot run ssh-keygen: ${r.spawnError}` });
  if (r.timedOut) throw new SluiceError('SIGNING_FAILED', { message: `ssh-keygen did not answer within ${TIMEOUT_MS / 1000}s (a passphrase prompt?)` });
  const text = (chunks: Uint8Array[]) => new TextDecoder().decode(concat(chunks));
  return { code: r.exitCode, stdout: text(out), stderr: text(err) };
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const all = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const c of chunks) all.set(c, (at += c.length) - c.length);
  return all;
}

/** ssh-keygen's last meaningful stderr line, without its progress chatter. */
function reason(stderr: string): string {
  const lines = stderr
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !/^Signing data on standard input/.test(l));
  return lines.at(-1) ?? 'no reason given';
}

const FINGERPRINT = /\bkey (SHA256:[A-Za-z0-9+/=]+)/;

/** Signs `text` with the key; returns the armored signature. */
export async function sshSign(host: Host, req: SignRequest): Promise<string> {
  const r = await sshKeygen(host, ['-Y', 'sign', '-f', req.keyFile, '-n', req.namespace ?? SIGNATURE_NAMESPACE, '-q'], req.text);
  if (r.code !== 0 || !r.stdout.includes('BEGIN SSH SIGNATURE')) {
    throw new SluiceError('SIGNING_FAILED', { file: req.keyFile, message: `ssh-keygen could not sign with ${req.keyFile}: ${reason(r.stderr)}` });
  }
  return r.stdout.trim();
}

/** Runs `fn` with the signature in a private temp file (ssh-keygen reads signatures only from files). */
async function withSignatureFile<T>(host: Host, signature: string, tempDir: string | undefined, fn: (path: string) => Promise<T>): Promise<T> {
  const dir = (tempDir ?? host.env('TMPDIR') ?? '/tmp').replace(/\/+$/, '') || '/';
  const path = `${dir}/sluice-signature-${crypto.randomUUID()}.sig`;
  if (!(await host.writeExclusive(path, `${signature.trim()}\n`)))
    throw new SluiceError('SIGNING_FAILED', { file: path, message: `temp file ${path} already exists` });
  try {
    return await fn(path);
  } finally {
    await host.remove(path).catch(() => undefined);
  }
}

/** The principals allowed_signers lists for the signature's key (empty when none). */
export async function sshFindPrincipals(host: Host, req: Omit<VerifyRequest, 'text'>): Promise<string[]> {
  return withSignatureFile(host, req.signature, req.tempDir, async (sig) => {
    const r = await sshKeygen(host, ['-Y', 'find-principals', '-s', sig, '-f', req.allowedSigners], '');
    return r.code === 0
      ? r.stdout
          .split('\n')
          .map((l) => l.trim())
          .filter(Boolean)
      : [];
  });
}

/**
 * Verifies `signature` over `text`: valid for a principal of allowed_signers, good but by a key
 * allowed_signers does not list, or invalid. Never throws for a bad signature, only when ssh-keygen
 * cannot run.
 */
export async function sshVerify(host: Host, req: VerifyRequest): Promise<VerifyOutcome> {
  const namespace = req.namespace ?? SIGNATURE_NAMESPACE;
  if (!req.signature.includes('BEGIN SSH SIGNATURE')) return { status: 'invalid', detail: 'not an SSH signature' };
  return withSignatureFile(host, req.signature, req.tempDir, async (sig) => {
    const found = await sshKeygen(host, ['-Y', 'find-principals', '-s', sig, '-f', req.allowedSigners], '');
    const principals =
      found.code === 0
        ? found.stdout
            .split('\n')
            .map((l) => l.trim())
            .filter(Boolean)
        : [];
    let lastReason = reason(found.stderr);
    for (const principal of principals) {
      const r = await sshKeygen(host, ['-Y', 'verify', '-f', req.allowedSigners, '-I', principal, '-n', namespace, '-s', sig], req.text);
      if (r.code === 0) return { status: 'valid', principal, ...fingerprintOf(r.stdout) };
      lastReason = reason(r.stderr);
    }
    if (principals.length > 0) return { status: 'invalid', detail: lastReason };
    // No listed key: tell a good signature by a stranger from a broken one.
    const check = await sshKeygen(host, ['-Y', 'check-novalidate', '-n', namespace, '-s', sig], req.text);
    if (check.code === 0) return { status: 'unknown-signer', ...fingerprintOf(check.stdout), detail: 'the signing key is not in allowed_signers' };
    return { status: 'invalid', detail: reason(check.stderr) };
  });
}

function fingerprintOf(stdout: string): { fingerprint?: string } {
  const m = FINGERPRINT.exec(stdout);
  return m ? { fingerprint: m[1] } : {};
}
