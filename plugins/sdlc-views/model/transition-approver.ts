/**
 * Who stood behind a transition. sluice writes `confirmed_by`; other tools used other names, and the
 * reference's `advance_phase.py --signed-by NAME` records the name as `gate_results.signed_off_by`
 * (on the history entry and on the completed phase).
 */
export function transitionApprover(entry: Record<string, unknown>): string | null {
  const summary = entry.gate_results;
  const signedOff = typeof summary === 'object' && summary !== null ? (summary as Record<string, unknown>).signed_off_by : undefined;
  return text(entry.confirmed_by) ?? text(entry.approved_by) ?? text(entry.signed_by) ?? text(entry.approver) ?? text(signedOff);
}

/** A non-blank string, else null. */
export const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);
