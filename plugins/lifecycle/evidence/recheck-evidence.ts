import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { applyTransition } from '../record-stage.ts';
import { judgeFreshness, loadRecordedFingerprints } from '../recovery/freshness.ts';
import { reconstructState, staleFindings } from '../recovery/recovery-plan.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import { STAGES } from '../transition-table.ts';
import { changedArtifacts } from './artifact-hashes.ts';

export interface StaleEvidence {
  reasons: string[];
  /** The plan or implement evidence changed too: the route goes back to implement, not only to review. */
  fromImplement: boolean;
}

/**
 * Right before a commit: every completed gate's artifacts must still hash as recorded, and the code must
 * still be what the last recorded result saw. Undefined when all of it holds.
 */
export async function recheckEvidence(lc: LifecycleContext, state: WorkflowState): Promise<StaleEvidence | undefined> {
  const reasons: string[] = [];
  let fromImplement = false;
  for (const stage of STAGES) {
    // The plan's task list is the implement stage's evidence too: implement checks the boxes by design.
    if (stage === 'plan' || stage === 'commit' || !state.completed_stages.includes(stage)) continue;
    const changed = await changedArtifacts(lc, state.results[stage]?.artifacts);
    if (changed.length === 0) continue;
    reasons.push(`${changed.join(', ')} changed after ${stage} was recorded`);
    if (stage === 'implement') fromImplement = true;
  }
  const freshness = judgeFreshness(state, await lc.fingerprint(), await loadRecordedFingerprints(lc));
  if (freshness === 'stale') reasons.push('the code changed after the last recorded review and test');
  if (freshness === 'unknown') reasons.push('the workspace is not a git work tree, so the evidence cannot be checked');
  return reasons.length === 0 ? undefined : { reasons, fromImplement };
}

/**
 * Stale or contradicted evidence sends the requirement back (to code review for a code change, to
 * implement when the plan's evidence changed) as a recorded reroute, then refuses with EVIDENCE_STALE.
 */
export async function routeBackStale(lc: LifecycleContext, slug: string, caller: string | null, stale: StaleEvidence): Promise<never> {
  const note = `evidence re-checked before commit: ${stale.reasons.join('; ')}`;
  const fingerprint = await lc.fingerprint();
  const r = await applyTransition(lc, slug, caller, (s) => {
    const findings = staleFindings(s).map((f) => (stale.fromImplement && f.stage !== 'plan' ? { ...f, valid: false } : f));
    const rebuilt = reconstructState(s, findings, { now: lc.now(), fingerprint, note });
    return { ok: true, state: { ...rebuilt, commit_intent: null }, row: 'recovery:stale-evidence' };
  });
  throw new SluiceError('EVIDENCE_STALE', {
    file: lc.kernel.display(r.state.artifact_dir),
    message: `${slug}: ${stale.reasons.join('; ')}; routed back to ${r.state.next_stage ?? 'the start'}, nothing committed`,
    data: { reasons: stale.reasons, next: r.next },
  });
}
