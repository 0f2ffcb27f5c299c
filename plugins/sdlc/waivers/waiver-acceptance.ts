import type { GateResult, Kernel } from '../../../core/index.ts';
import type { SdlcProject } from '../project/open-project.ts';
import { allowedSignersPath } from '../signing/allowed-signers-file.ts';
import { signaturesRequired } from '../signing/sign-transition.ts';
import { verifyEntrySignature, type EntrySignatureOutcome } from '../signing/verify-history.ts';
import type { AcceptedWaiver } from '../state/history-schema.ts';
import { acceptancesOf, waiversOfResult, type WaiverAcceptanceRecord } from './waiver-records.ts';

/** What the profile asks of a waiver before it lets an artifact through. */
export interface WaiverPolicy {
  /** A person must accept it (`sluice waivers accept`). */
  acceptance: boolean;
  /** ... with a signature that verifies against .sdlc/allowed_signers. */
  signed: boolean;
}

export function waiverPolicy(project: Pick<SdlcProject, 'profile'>): WaiverPolicy {
  const signed = signaturesRequired(project as SdlcProject);
  return { signed, acceptance: signed || project.profile.sluice?.require_waiver_acceptance === true };
}

/** Whether a waiver stands accepted under the policy, and if not, why. */
export type WaiverStanding = { accepted: true; record: WaiverAcceptanceRecord } | { accepted: false; why: string };

/**
 * Checks waivers against the acceptances in history, verifying signatures (once per entry) when the
 * policy asks for them: a signature that is missing, invalid or by a key outside allowed_signers does
 * not count, so an acceptance written into state.yaml by hand lets nothing through.
 */
export function waiverStandings(kernel: Kernel, project: Pick<SdlcProject, 'paths' | 'state'>, phase: string, policy: WaiverPolicy) {
  const acceptances = acceptancesOf(project.state, phase);
  const signersPath = allowedSignersPath(project.paths.dir);
  let hasSigners: Promise<boolean> | undefined;
  const verified = new Map<number, Promise<EntrySignatureOutcome>>();
  const verify = (index: number) => {
    hasSigners ??= kernel.host.stat(signersPath).then((s) => s !== null);
    if (!verified.has(index))
      verified.set(
        index,
        hasSigners.then((has) => verifyEntrySignature(kernel, project.state, index, signersPath, has)),
      );
    return verified.get(index)!;
  };
  return async (w: AcceptedWaiver): Promise<WaiverStanding> => {
    const records = acceptances.get(w.digest) ?? [];
    if (records.length === 0) return { accepted: false, why: 'not accepted' };
    if (!policy.signed) return { accepted: true, record: records.at(-1)! };
    let why = 'accepted without a signature';
    for (const record of [...records].reverse()) {
      const outcome = await verify(record.index);
      if (outcome.status === 'verified') return { accepted: true, record };
      if (outcome.status !== 'unsigned') why = `its acceptance's signature is ${outcome.status}${outcome.detail ? ` (${outcome.detail})` : ''}`;
    }
    return { accepted: false, why };
  };
}

/**
 * The gate results with every waiver the policy does not let through turned into a failure: a row
 * that passed only through `WAIVED:` lines fails until a person accepted each (signed, where the
 * profile requires signatures). Without the policy the results are returned as they are.
 */
export async function enforceWaiverAcceptance(kernel: Kernel, project: SdlcProject, phase: string, results: GateResult[]): Promise<GateResult[]> {
  const policy = waiverPolicy(project);
  if (!policy.acceptance || !results.some((r) => r.passed === true && waiversOfResult(r).length > 0)) return results;
  const standing = waiverStandings(kernel, project, phase, policy);
  return Promise.all(
    results.map(async (r) => {
      if (r.passed !== true) return r;
      const problems: string[] = [];
      for (const w of waiversOfResult(r)) {
        const s = await standing(w);
        if (!s.accepted) problems.push(`waiver by ${w.who} at ${w.file}${w.line ? `:${w.line}` : ''} is ${s.why}`);
      }
      if (problems.length === 0) return r;
      const how = policy.signed ? 'sluice waivers accept --sign' : 'sluice waivers accept';
      return { ...r, passed: false, message: `${problems.join('; ')}: a person accepts it with \`${how}\` (${r.message})` };
    }),
  );
}
