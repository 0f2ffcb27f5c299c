import { join } from 'pathe';
import { checkPrivateFile, SluiceError, type Kernel } from '../../../core/index.ts';
import { parseAllowedSigners } from './allowed-signers.ts';
import { SIGNATURE_NAMESPACE, sshSign, sshVerify } from './ssh-signature.ts';
import type { SdlcProject } from '../project/open-project.ts';
import type { HistoryEntry } from '../state/history-schema.ts';
import type { SdlcState } from '../state/state-schema.ts';
import { allowedSignersPath } from './allowed-signers-file.ts';
import { transitionStatement } from './transition-statement.ts';
import type { TransitionSignature } from './transition-signature.ts';

/** `--sign` as given: `true` (find the key) or a key path. */
export type SignOption = boolean | string | undefined;

/** Whether the profile refuses transitions without a signature (`sluice.require_signed_approvals`). */
export function signaturesRequired(project: SdlcProject): boolean {
  return (project.profile.sluice as { require_signed_approvals?: boolean } | undefined)?.require_signed_approvals === true;
}

/** Refuses an unsigned approval when the profile requires signatures; nothing has been written yet. */
export function assertSignedIfRequired(project: SdlcProject, sign: SignOption, what: string): void {
  if (sign || !signaturesRequired(project)) return;
  throw new SluiceError('SIGNATURE_REQUIRED', {
    file: project.profileDisplay,
    field: 'sluice.require_signed_approvals',
    message: `the profile requires signed approvals: ${what} needs --sign (your SSH key, listed in .sdlc/allowed_signers)`,
  });
}

const expandHome = (kernel: Kernel, p: string) => (p.startsWith('~/') ? join(kernel.host.env('HOME') ?? kernel.host.accountHome(), p.slice(2)) : p);

/** The key `--sign` uses when given no path: SLUICE_SIGNING_KEY, else git's user.signingkey, else ~/.ssh/id_ed25519 if there. */
export async function defaultSigningKey(kernel: Kernel): Promise<string | undefined> {
  const { host } = kernel;
  const fromEnv = host.env('SLUICE_SIGNING_KEY');
  if (fromEnv) return expandHome(kernel, fromEnv);
  let gitKey = '';
  const r = await host.spawn({
    command: 'git',
    args: ['config', '--get', 'user.signingkey'],
    cwd: kernel.projectRoot,
    timeoutMs: 10_000,
    onStdout: (c) => (gitKey += new TextDecoder().decode(c)),
  });
  if (r.exitCode === 0 && gitKey.trim() && !gitKey.trim().startsWith('key::')) return expandHome(kernel, gitKey.trim());
  const fallback = join(host.env('HOME') ?? host.accountHome(), '.ssh', 'id_ed25519');
  return (await host.stat(fallback)) ? fallback : undefined;
}

/** The key to sign with: --sign KEY, else the default one. */
async function signingKey(kernel: Kernel, sign: SignOption): Promise<string> {
  if (typeof sign === 'string' && sign !== '') return expandHome(kernel, sign);
  const found = await defaultSigningKey(kernel);
  if (found) return found;
  throw new SluiceError('SIGNING_FAILED', {
    field: '--sign',
    message: 'no signing key found: pass --sign KEY, set SLUICE_SIGNING_KEY, or set git config user.signingkey',
  });
}

/** A person about to sign: their key and the principal allowed_signers lists for it. */
export interface Signer {
  keyFile: string;
  principal: string;
  allowedSigners: string;
}

/** The public half of a key file: KEY.pub beside it, the file itself if public, else derived by ssh-keygen -y. */
async function publicKey(kernel: Kernel, keyFile: string): Promise<string> {
  const { host } = kernel;
  for (const candidate of keyFile.endsWith('.pub') ? [keyFile] : [`${keyFile}.pub`]) {
    if (await host.stat(candidate)) return host.readText(candidate, { maxBytes: 64 * 1024 });
  }
  let out = '';
  const r = await host.spawn({ command: 'ssh-keygen', args: ['-y', '-f', keyFile], timeoutMs: 30_000, onStdout: (c) => (out += new TextDecoder().decode(c)) });
  if (r.spawnError) throw new SluiceError('SIGNING_UNAVAILABLE', { message: `cannot run ssh-keygen: ${r.spawnError}` });
  if (r.exitCode !== 0 || !out.trim())
    throw new SluiceError('SIGNING_FAILED', {
      file: keyFile,
      message: `cannot read the SSH key ${keyFile} (missing, or its passphrase is needed: load it in ssh-agent and pass the .pub file)`,
    });
  return out;
}

/**
 * Who `--sign` signs as, found before any gate runs: the key, and its principal in
 * .sdlc/allowed_signers. A key nobody listed is refused here, before anything is written.
 */
export async function resolveSigner(kernel: Kernel, project: SdlcProject, sign: SignOption): Promise<Signer | undefined> {
  if (!sign) return undefined;
  const signers = allowedSignersPath(project.paths.dir);
  const display = kernel.display(signers);
  if (!(await kernel.host.stat(signers))) {
    throw new SluiceError('SIGNING_FAILED', {
      file: display,
      message: `${display} does not exist: signed approvals need the list of allowed signers (sluice init --allowed-signers FILE, or the pack's allowed_signers)`,
    });
  }
  const keyFile = await signingKey(kernel, sign);
  // A key someone else could have replaced (or, for a private key, read) signs nothing: ssh's rules.
  await checkPrivateFile(kernel.host, keyFile, { what: 'the signing key', secret: !keyFile.endsWith('.pub') });
  const [type, key] = (await publicKey(kernel, keyFile)).trim().split(/\s+/);
  const listed = parseAllowedSigners(await kernel.host.readText(signers, { maxBytes: 256 * 1024 }), display).find((e) => e.keyType === type && e.key === key);
  if (!listed)
    throw new SluiceError('SIGNING_FAILED', { file: display, field: '--sign', message: `the key ${keyFile} is not in ${display}; nothing was written` });
  return { keyFile, principal: listed.principals[0]!, allowedSigners: signers };
}

/** Signs the entry a transition is about to append and checks the signature right away against allowed_signers. */
export async function signTransition(kernel: Kernel, state: SdlcState, entry: HistoryEntry, signer: Signer): Promise<TransitionSignature> {
  const statement = transitionStatement(state, entry, state.history.length);
  const signature = await sshSign(kernel.host, { keyFile: signer.keyFile, text: statement });
  const check = await sshVerify(kernel.host, { allowedSigners: signer.allowedSigners, text: statement, signature });
  if (check.status !== 'valid') {
    const why =
      check.status === 'unknown-signer'
        ? `the key ${signer.keyFile} is not in ${kernel.display(signer.allowedSigners)}`
        : `the signature does not verify (${check.detail})`;
    throw new SluiceError('SIGNING_FAILED', { file: kernel.display(signer.allowedSigners), message: `${why}; nothing was written` });
  }
  return { principal: check.principal, ...(check.fingerprint ? { fingerprint: check.fingerprint } : {}), namespace: SIGNATURE_NAMESPACE, signature };
}

/** The state with the signature put on the entry just appended, after checking it is the entry that was signed. */
export function withSignature(state: SdlcState, signed: HistoryEntry, signature: TransitionSignature | undefined, display: string): SdlcState {
  if (!signature) return state;
  const index = state.history.length - 1;
  const last = state.history[index]!;
  if (transitionStatement(state, last, index) !== transitionStatement(state, signed, index)) {
    throw new SluiceError('PHASE_MOVED', { file: display, message: 'the transition changed after it was signed; nothing was written' });
  }
  return { ...state, history: [...state.history.slice(0, index), { ...last, signature }] };
}

/**
 * The state update a transition writes: `build` as is, or, with --sign, `build` plus the signature of
 * the entry it appends (signed now, before the lock; ssh-keygen may wait on ssh-agent). Refuses an
 * unsigned transition first when the profile requires signatures.
 */
export async function signedUpdate(
  kernel: Kernel,
  project: SdlcProject,
  signer: Signer | undefined,
  what: string,
  build: (state: SdlcState) => SdlcState,
): Promise<(state: SdlcState) => SdlcState> {
  assertSignedIfRequired(project, signer !== undefined, what);
  if (!signer) return build;
  const entry = build(project.state).history.at(-1)!;
  const signature = await signTransition(kernel, project.state, entry, signer);
  const display = kernel.display(project.paths.state);
  return (state) => withSignature(build(state), entry, signature, display);
}
