import type { Style } from '../../../core/index.ts';
import { personLabel } from './person-label.ts';
import type { EntrySignatureCheck, SignatureAudit } from './verify-history.ts';

/** How a person is shown: a verified signer by their principal, any other name marked unverified. */
export function signerLabel(check: Pick<EntrySignatureCheck, 'status' | 'signer' | 'claimed'>): string {
  return personLabel(check.claimed, check.status === 'verified' ? check.signer : null);
}

const WHAT: Record<EntrySignatureCheck['kind'], string> = {
  advance: 'advance',
  skip: 'skip',
  reenter: 're-entry',
  signoff: 'sign-off',
  refreeze: 're-freeze',
  waiver: 'waiver acceptance',
};

/** The audit's Signatures section: counts, then every entry that is not a verified signature. */
export function renderSignatures(a: SignatureAudit, s: Style, display: (text: string) => string = (t) => t): string {
  const c = a.counts;
  const lines = [
    s.bold(`Signatures (${a.entries.length} transitions)`),
    `  ${c.verified} verified, ${c.unsigned} unsigned${a.required ? s.red(' (the profile requires signatures)') : ''}, ${c.invalid} invalid, ${c['unknown-signer']} by an unknown signer, ${c.replayed} replayed; signers: ${a.allowedSigners ?? s.dim('no .sdlc/allowed_signers')}`,
  ];
  for (const e of a.entries) {
    const head = `  #${e.index} ${e.at}  ${WHAT[e.kind]} ${e.from} → ${e.to}, by ${display(signerLabel(e))}`;
    if (e.status === 'verified') lines.push(s.dim(head));
    else if (e.status === 'unsigned') lines.push(`${head}: ${a.required ? s.red('unsigned') : 'unsigned'}`);
    else lines.push(`${head}: ${s.red(e.status)}${e.detail ? ` (${display(e.detail)})` : ''}`);
  }
  return lines.join('\n');
}
