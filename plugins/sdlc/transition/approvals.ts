import { SluiceError, type GateResult } from '../../../core/index.ts';
import { approvalId } from '../gating/gate-verdict.ts';
import type { Approval } from '../state/history-schema.ts';

/**
 * How the manual results of one `next` run get their sign-off; the one place approvals are made, so
 * a signature (or any other proof of who signed) attaches here.
 * - `--approve ID --signed-by NAME` approves the named result (`via: approve`);
 * - `--confirmed` approves every manual result the same run listed, each recorded on its own with the
 *   signer (`via: confirmed`), as the seed's step 5 lets the human's confirmation do — unless the
 *   profile sets `sluice.per_gate_approval`, where each result needs its own --approve.
 */
export interface ApprovalRequest {
  /** `--approve` ids. */
  approve: readonly string[];
  /** `--signed-by`, trimmed; required with --approve. */
  signedBy?: string;
  confirmed: boolean;
  /** Who confirms when no --signed-by is given (the OS user). */
  confirmer: string;
  perGateApproval: boolean;
  at: string;
}

export interface ApprovalOutcome {
  approvals: Approval[];
  /** Manual results still without a sign-off. */
  unapproved: GateResult[];
}

/** Checks --approve ids against the manual results: an unknown id is a usage error listing the valid ones. */
function namedApprovals(manual: readonly GateResult[], phase: string, r: ApprovalRequest): Approval[] {
  const ids = [...new Set(r.approve)];
  if (ids.length === 0) return [];
  if (!r.signedBy) throw new SluiceError('USAGE', { field: '--signed-by', message: '--approve needs --signed-by NAME: approvals record who signed' });
  const manualIds = manual.map(approvalId);
  const unknown = ids.filter((id) => !manualIds.includes(id));
  if (unknown.length > 0) {
    throw new SluiceError('USAGE', {
      field: '--approve',
      message: `${unknown.join(', ')} ${unknown.length > 1 ? 'are not manual gates' : 'is not a manual gate'} of phase ${phase}; manual gates: ${manualIds.join(', ') || 'none'}`,
    });
  }
  return ids.map((gate) => ({ gate, signed_by: r.signedBy!, at: r.at, via: 'approve' as const }));
}

export function approveManualResults(manual: readonly GateResult[], phase: string, r: ApprovalRequest): ApprovalOutcome {
  const approvals = namedApprovals(manual, phase, r);
  const rest = manual.filter((m) => !approvals.some((a) => a.gate === approvalId(m)));
  if (!r.confirmed || r.perGateApproval) return { approvals, unapproved: rest };
  const signer = r.signedBy || r.confirmer;
  return { approvals: [...approvals, ...rest.map((m) => ({ gate: approvalId(m), signed_by: signer, at: r.at, via: 'confirmed' as const }))], unapproved: [] };
}
