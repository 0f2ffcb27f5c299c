import type { Kernel } from '../../../core/index.ts';
import { sshVerify } from './ssh-signature.ts';
import type { SdlcProject } from '../project/open-project.ts';
import type { HistoryEntry } from '../state/history-schema.ts';
import { allowedSignersPath } from './allowed-signers-file.ts';
import { signaturesRequired } from './sign-transition.ts';
import { transitionKind, transitionStatement, type TransitionKind } from './transition-statement.ts';

export type SignatureStatus = 'verified' | 'unsigned' | 'invalid' | 'unknown-signer' | 'replayed';

export interface EntrySignatureCheck {
  index: number;
  kind: TransitionKind;
  from: string;
  to: string;
  at: string;
  status: SignatureStatus;
  /** The verified principal (verified only). */
  signer: string | null;
  /** The free-text name the entry records (`confirmed_by`): unverified on its own. */
  claimed: string | null;
  detail?: string;
}

export interface SignatureAudit {
  required: boolean;
  allowedSigners: string | null;
  entries: EntrySignatureCheck[];
  counts: Record<SignatureStatus, number>;
  /** Entries whose signature is invalid, by an unknown key or replayed, plus unsigned ones when signatures are required. */
  problems: number;
}

/** How far back and forward a failed signature is tried against other entries to tell a replay. */
const REPLAY_WINDOW = 50;

/**
 * `sluice audit`'s signature check: every history entry's signature is verified with ssh-keygen
 * against .sdlc/allowed_signers over the statement rebuilt from state.yaml. A signature that fails
 * for its own entry but is another entry's (copied, or valid for another position) is a replay.
 */
export async function verifyHistory(kernel: Kernel, project: SdlcProject): Promise<SignatureAudit> {
  const signersPath = allowedSignersPath(project.paths.dir);
  const hasSigners = (await kernel.host.stat(signersPath)) !== null;
  const history = project.state.history;
  const seen = new Map<string, number>();
  const entries: EntrySignatureCheck[] = [];
  for (const [index, entry] of history.entries()) {
    const base = {
      index,
      kind: transitionKind(entry),
      from: String(entry.from),
      to: String(entry.to),
      at: entry.at,
      signer: null,
      claimed: entry.confirmed_by ?? null,
    };
    const sig = entry.signature;
    if (!sig) {
      entries.push({ ...base, status: 'unsigned' });
      continue;
    }
    const earlier = seen.get(sig.signature);
    seen.set(sig.signature, earlier ?? index);
    if (earlier !== undefined) {
      entries.push({ ...base, status: 'replayed', detail: `the same signature as entry ${earlier}` });
      continue;
    }
    const outcome = await verifyEntrySignature(kernel, project.state, index, signersPath, hasSigners);
    if (outcome.status !== 'invalid' || outcome.mismatch === false) {
      entries.push({ ...base, status: outcome.status, signer: outcome.signer, ...(outcome.detail ? { detail: outcome.detail } : {}) });
      continue;
    }
    const verify = (e: HistoryEntry, i: number) =>
      sshVerify(kernel.host, { allowedSigners: signersPath, text: transitionStatement(project.state, e, i), signature: sig.signature });
    const source = await replaySource(history, index, verify);
    entries.push(
      source === undefined
        ? { ...base, status: 'invalid', detail: outcome.detail }
        : { ...base, status: 'replayed', detail: `the signature was made for entry ${source}` },
    );
  }
  const counts = { verified: 0, unsigned: 0, invalid: 0, 'unknown-signer': 0, replayed: 0 } satisfies Record<SignatureStatus, number>;
  for (const e of entries) counts[e.status]++;
  const required = signaturesRequired(project);
  const problems = counts.invalid + counts['unknown-signer'] + counts.replayed + (required ? counts.unsigned : 0);
  return { required, allowedSigners: hasSigners ? kernel.display(signersPath) : null, entries, counts, problems };
}

/** One entry's signature checked on its own (no replay search): what the gates need before trusting an acceptance. */
export interface EntrySignatureOutcome {
  status: Exclude<SignatureStatus, 'replayed'>;
  signer: string | null;
  detail?: string;
  /** invalid only: true when the signature does not match the entry's text (it may be another entry's). */
  mismatch?: boolean;
}

/**
 * Verifies the signature of history entry `index` with ssh-keygen against allowed_signers (when the
 * project has none, no signature can be trusted) over the statement rebuilt from the state.
 */
export async function verifyEntrySignature(
  kernel: Kernel,
  state: SdlcProject['state'],
  index: number,
  signersPath: string,
  hasSigners: boolean,
): Promise<EntrySignatureOutcome> {
  const sig = state.history[index]?.signature;
  if (!sig) return { status: 'unsigned', signer: null };
  if (!hasSigners) return { status: 'unknown-signer', signer: null, detail: `${kernel.display(signersPath)} does not exist` };
  const outcome = await sshVerify(kernel.host, {
    allowedSigners: signersPath,
    text: transitionStatement(state, state.history[index]!, index),
    signature: sig.signature,
  });
  if (outcome.status === 'valid' && outcome.principal !== sig.principal)
    return { status: 'invalid', signer: null, mismatch: false, detail: `the entry names ${sig.principal} but the key belongs to ${outcome.principal}` };
  if (outcome.status === 'valid') return { status: 'verified', signer: outcome.principal };
  if (outcome.status === 'unknown-signer')
    return {
      status: 'unknown-signer',
      signer: null,
      detail: `the signing key${outcome.fingerprint ? ` ${outcome.fingerprint}` : ''} is not in ${kernel.display(signersPath)}`,
    };
  return {
    status: 'invalid',
    signer: null,
    mismatch: true,
    detail: `the signature does not match this entry (${outcome.detail}): it was changed after signing`,
  };
}

async function replaySource(
  history: readonly HistoryEntry[],
  index: number,
  verify: (e: HistoryEntry, i: number) => Promise<{ status: string }>,
): Promise<number | undefined> {
  for (let i = Math.max(0, index - REPLAY_WINDOW); i < Math.min(history.length, index + REPLAY_WINDOW); i++) {
    if (i === index) continue;
    if ((await verify(history[i]!, i)).status === 'valid') return i;
  }
  return undefined;
}
