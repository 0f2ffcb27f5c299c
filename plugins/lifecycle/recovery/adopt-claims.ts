import { isSluiceError, SluiceError } from '../../../core/index.ts';
import { checkOwnership } from '../apply-event.ts';
import { loadRequirement, writeJournaled, type LoadedRequirement } from '../journal/journaled-state.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { canonicalJson } from '../../../core/index.ts';
import { completionStatus } from '../state/stage-completion.ts';
import type { Fingerprint, WorkflowState } from '../state/workflow-state-schema.ts';
import { STAGES } from '../transition-table.ts';
import { inspectStages, type Inspection } from './inspect-stages.ts';
import { reconstructState } from './recovery-plan.ts';

/**
 * Adoption trusts nothing. A state file without its journal (PrizmKit's own, or sluice's from before
 * journals) only claims its stages: each one counts when its artifact, read again now, completes it
 * (the review's final result PASS, the test verdict a pass that changed no production code, the
 * retrospective's result), in lifecycle order up to the first that does not; that one and everything
 * after it run again. A claimed commit never counts by itself (see inspect-stages.ts). Counters, owner
 * and a block are kept. Each counted stage gets a result recorded now, with the artifacts' hashes and
 * the workspace's fingerprint, so everything later (freshness, the commit's re-check) has evidence.
 */
export function adoptClaims(claimed: WorkflowState, inspection: Inspection, ctx: { now: string; note: string }): WorkflowState {
  // The claimed results are part of the claim: none of them is kept.
  const base: WorkflowState = { ...claimed, results: {}, commit: null, commit_intent: null };
  const rebuilt = reconstructState(base, inspection.findings, { now: ctx.now, fingerprint: inspection.fingerprint, note: ctx.note });
  const results: WorkflowState['results'] = {};
  for (const stage of STAGES) {
    if (stage === 'commit' || !rebuilt.completed_stages.includes(stage)) continue;
    const f = inspection.findings.find((x) => x.stage === stage)!;
    results[stage] = {
      status: completionStatus(stage),
      stage_result: f.stageResult ?? null,
      evidence: f.evidence ?? null,
      ...(f.format ? { format: f.format } : {}),
      fingerprint: inspection.fingerprint as Fingerprint | null,
      ...(f.artifacts?.length ? { artifacts: Object.fromEntries(f.artifacts.map((a) => [a.file, a.sha256])) } : {}),
      at: ctx.now,
    };
  }
  const adopted = { ...rebuilt, results, updated_at: ctx.now };
  // A block stays until a person resolves it; the stages it keeps are only those that were re-read.
  if (claimed.status === 'WORKFLOW_BLOCKED')
    return {
      ...adopted,
      status: claimed.status,
      stage: claimed.stage,
      stage_result: claimed.stage_result,
      blocker: claimed.blocker,
      next_stage: claimed.next_stage,
      resume_from: claimed.resume_from,
    };
  return adopted;
}

/** The requirement as adoption will have it: the claims of an unjournaled state re-read; anything else as loaded. */
export async function adoptedView(lc: LifecycleContext, slug: string, loaded: LoadedRequirement): Promise<WorkflowState> {
  if (loaded.provenance !== 'unjournaled') return loaded.state;
  // Only shown, not written: dated as the file is, so the same file always reads the same.
  return (await verifyClaims(lc, slug, loaded.state, loaded.state.updated_at)).state;
}

export async function verifyClaims(
  lc: LifecycleContext,
  slug: string,
  claimed: WorkflowState,
  now: string = lc.now(),
): Promise<{ state: WorkflowState; inspection: Inspection }> {
  const inspection = await inspectStages(lc, slug, claimed.artifact_dir, { kind: 'claims', previous: claimed });
  const state = adoptClaims(claimed, inspection, {
    now,
    note: 'adopted: a state without journal claimed these stages; their artifacts do not complete them',
  });
  return { state, inspection };
}

/**
 * Before the first transition on a state without journal: the re-read state is journaled as the
 * requirement's start (after the claimed state, kept as the `adopt` entry for the record). A caller the
 * owner check refuses adopts nothing; its transition is refused as usual.
 */
export async function adoptUnjournaled(lc: LifecycleContext, slug: string, caller: string | null): Promise<void> {
  const loaded = await loadRequirement(lc, slug).catch((error) => {
    if (isSluiceError(error)) return null;
    throw error;
  });
  if (loaded?.provenance !== 'unjournaled' || checkOwnership(loaded.state, caller)) return;
  const { state } = await verifyClaims(lc, slug, loaded.state);
  const claimed = canonicalJson(loaded.state);
  await writeJournaled(lc, slug, caller, (current) => {
    if (!current) throw new SluiceError('STATE_MISSING', { message: `the state of ${slug} disappeared while it was being adopted` });
    // Another process adopted it meanwhile, or the claim changed: the transition reads it afresh.
    if (current.provenance !== 'unjournaled' || canonicalJson(current.state) !== claimed) return undefined;
    return { state, row: 'adopt:re-read' };
  });
}
