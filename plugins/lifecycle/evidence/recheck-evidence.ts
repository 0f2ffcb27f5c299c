import { SluiceError } from '../../../core/index.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { applyTransition } from '../record-stage.ts';
import { judgeFreshness, loadRecordedFingerprints } from '../recovery/freshness.ts';
import { reconstructState, staleFindings } from '../recovery/recovery-plan.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import { COMPLETING_RESULTS } from '../state/stage-completion.ts';
import { STAGES, type Stage } from '../transition-table.ts';
import { isDocumentationPath, isTestPath } from '../workspace/test-paths.ts';
import { isSluiceRuntimePath } from '../workspace/git-status.ts';
import { fileDigest, isArtifactPath } from '../workspace/workspace-fingerprint.ts';
import { changedArtifacts } from './artifact-hashes.ts';

export interface StaleEvidence {
  reasons: string[];
  /** The plan or implement evidence changed too: the route goes back to implement, not only to review. */
  fromImplement: boolean;
}

/**
 * Right before a commit: every completed gate's artifacts must still hash as recorded, and every file the
 * commit carries must be byte for byte what review, test and retrospective saw (a file that was clean
 * then and is changed now changed after them). Work on other files (a parallel requirement in the same
 * workspace) does not count. Results recorded before per-file digests fall back to the fingerprint.
 * Undefined when all of it holds.
 */
export async function recheckEvidence(lc: LifecycleContext, state: WorkflowState, committing: readonly string[]): Promise<StaleEvidence | undefined> {
  const { reasons, fromImplement } = await gateEvidenceStale(lc, state);
  const files = (stage: 'code-review' | 'test' | 'retrospective') => (state.completed_stages.includes(stage) ? state.results[stage]?.fingerprint?.files : null);
  const [review, test, retro] = [files('code-review'), files('test'), files('retrospective')];
  if (review === undefined || test === undefined || retro === undefined) {
    const freshness = judgeFreshness(state, await lc.fingerprint(), await loadRecordedFingerprints(lc));
    if (freshness === 'stale') reasons.push('the code changed after the last recorded review and test');
    if (freshness === 'unknown') reasons.push('the workspace is not a git work tree, so the evidence cannot be checked');
  } else {
    const recorded = new Set(Object.values(state.results).flatMap((r) => Object.keys(r?.artifacts ?? {})));
    const changed: string[] = [];
    for (const path of committing) {
      if (isArtifactPath(path) || isSluiceRuntimePath(path) || recorded.has(path)) continue;
      const now = await fileDigest(lc.host, lc.root, path);
      // Every committed file is as the last gate saw it. Production code is as review and test saw it;
      // test infrastructure may change after review (its own route), documentation in the retrospective.
      const doc = isDocumentationPath(path);
      const seen = [retro, doc ? null : test, doc || isTestPath(path) ? null : review];
      if (seen.some((f) => f && f[path] !== now)) changed.push(path);
    }
    if (changed.length > 0) reasons.push(`${changed.join(', ')} changed after the last recorded review and test`);
  }
  return reasons.length === 0 ? undefined : { reasons, fromImplement };
}

/** What a commit needs of the gates whatever its files: each one completed by its own result, its artifacts as recorded. */
export async function gateEvidenceStale(lc: LifecycleContext, state: WorkflowState): Promise<StaleEvidence> {
  const reasons = uncompletedGates(state);
  let fromImplement = false;
  for (const stage of STAGES) {
    // The plan's task list is the implement stage's evidence too: implement checks the boxes by design.
    if (stage === 'plan' || stage === 'commit' || !state.completed_stages.includes(stage)) continue;
    const changed = await changedArtifacts(lc, state.results[stage]?.artifacts);
    if (changed.length === 0) continue;
    reasons.push(`${changed.join(', ')} changed after ${stage} was recorded`);
    if (stage === 'implement') fromImplement = true;
  }
  return { reasons, fromImplement };
}

/**
 * A review that needs fixes, a failing or missing test verdict, or a retrospective without its result
 * never goes into a commit, whatever `completed_stages` says: every gate must hold the result that
 * completes it, recorded by sluice from its artifact.
 */
function uncompletedGates(state: WorkflowState): string[] {
  const reasons: string[] = [];
  for (const [stage, completing] of Object.entries(COMPLETING_RESULTS) as [Stage, readonly string[]][]) {
    const r = state.results[stage];
    if (!state.completed_stages.includes(stage)) reasons.push(`${stage} is not complete`);
    else if (!r) reasons.push(`${stage} is marked complete, but sluice recorded no result for it`);
    else if (!completing.includes(r.stage_result ?? '')) reasons.push(`the recorded ${stage} result is ${r.stage_result ?? 'none'}`);
  }
  return reasons;
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
