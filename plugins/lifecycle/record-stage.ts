import { isSluiceError, SluiceError } from '../../core/index.ts';
import { readStageEvidence, type EvidenceStage } from './evidence/read-stage-evidence.ts';
import type { LifecycleContext } from './lifecycle-context.ts';
import type { ArtifactRef } from './readers/read-artifact.ts';
import type { LifecycleTransitionEvent } from './lifecycle-hooks.ts';
import { workflowStateFile } from './state/workflow-state-file.ts';
import type { WorkflowState } from './state/workflow-state-schema.ts';
import { applyEvent, checkCanRecord, type Stage, type TransitionOutcome } from './transition-table.ts';
import { sameFingerprint } from './workspace/workspace-fingerprint.ts';

/** What to run next; a direct stage call reports it and never claims it ran. */
export interface NextInvocation {
  stage: Stage | null;
  skill: string | null;
  blocked: boolean;
  command: string | null;
  ran: false;
}

export interface TransitionResult {
  slug: string;
  state: WorkflowState;
  row: string;
  rule?: string;
  next: NextInvocation;
  /** What the result was read from: the recognised format and each file with its content hash. */
  artifact?: { format: string; files: ArtifactRef[] };
}

export function nextInvocation(slug: string, state: WorkflowState): NextInvocation {
  const blocked = state.status === 'WORKFLOW_BLOCKED';
  const command = blocked
    ? `sluice lifecycle record ${slug} unblock --resolution "<what was fixed>"${state.orchestrator ? ` --orchestrator ${state.orchestrator}` : ''}`
    : state.next_stage === null
      ? null
      : `sluice lifecycle record ${slug} ${state.next_stage}${state.orchestrator ? ` --orchestrator ${state.orchestrator}` : ''}`;
  return { stage: state.next_stage, skill: state.resume_from, blocked, command, ran: false };
}

/** Reads a workflow state, mapping a missing file to a hint about `start` (the read says so; no stat first). */
export async function readWorkflowState(lc: LifecycleContext, slug: string): Promise<WorkflowState> {
  const file = workflowStateFile(lc.root, slug);
  try {
    return await lc.kernel.store.read(file);
  } catch (error) {
    if (!isSluiceError(error, 'FILE_NOT_FOUND')) throw error;
    throw new SluiceError('STATE_MISSING', { file: lc.kernel.display(file.path), message: `requirement ${slug} has no workflow state`, hint: `run \`sluice lifecycle start ${slug}\`, or \`sluice lifecycle recover ${slug}\` to rebuild it from artifacts` });
  }
}

/**
 * The only way lifecycle state changes: lock, read, validate, apply a pure transition, validate, check
 * the invariant, write atomically (the store), then tell `lifecycle:transition` observers.
 */
export async function applyTransition(lc: LifecycleContext, slug: string, caller: string | null, compute: (state: WorkflowState) => TransitionOutcome): Promise<TransitionResult> {
  const file = workflowStateFile(lc.root, slug);
  let accepted: Extract<TransitionOutcome, { ok: true }> | undefined;
  const started = performance.now();
  const { before, after } = await lc.kernel.store.update(file, (state) => {
    const out = compute(state);
    if (!out.ok) throw new SluiceError(out.code, { file: lc.kernel.display(file.path), message: out.message, data: { rule: out.rule } });
    accepted = out;
    return out.state;
  });
  const writeMs = performance.now() - started;
  await emitTransition(lc, { slug, from: before?.status ?? null, state: after, row: accepted!.row, caller, writeMs });
  return { slug, state: after, row: accepted!.row, ...(accepted!.rule ? { rule: accepted!.rule } : {}), next: nextInvocation(slug, after) };
}

export async function emitTransition(lc: LifecycleContext, e: { slug: string; from: WorkflowState['status']; state: WorkflowState; row: string; caller: string | null; writeMs: number }): Promise<void> {
  const { hooks } = lc.kernel;
  if (!hooks.isDeclared('lifecycle:transition') || !hooks.hasHandlers('lifecycle:transition')) return;
  const event: LifecycleTransitionEvent = {
    slug: e.slug,
    root: lc.root,
    from: e.from,
    to: e.state.status,
    stage: e.state.stage,
    stageResult: e.state.stage_result,
    nextStage: e.state.next_stage,
    row: e.row,
    caller: e.caller,
    writeMs: e.writeMs,
    at: e.state.updated_at,
  };
  await hooks.call('lifecycle:transition', event);
}

/** Refuses early (by rule) when the stage may not be recorded now, before any artifact is read. */
export async function assertCanRecord(lc: LifecycleContext, slug: string, stage: Stage, caller: string | null): Promise<WorkflowState> {
  const state = await readWorkflowState(lc, slug);
  const refused = checkCanRecord(state, stage, caller);
  if (refused) throw new SluiceError(refused.code, { file: lc.kernel.display(workflowStateFile(lc.root, slug).path), message: refused.message, data: { rule: refused.rule } });
  return state;
}

/** Records a stage's result from its artifact, with the workspace fingerprint at this moment. */
export async function recordStage(lc: LifecycleContext, slug: string, stage: EvidenceStage, caller: string | null): Promise<TransitionResult> {
  const state = await assertCanRecord(lc, slug, stage, caller);
  const { artifacts, ...event } = await readStageEvidence(lc.host, lc.root, state.artifact_dir, stage, state);
  const fingerprint = await lc.fingerprint();
  const result = await applyTransition(lc, slug, caller, (s) => applyEvent(s, event, { now: lc.now(), fingerprint, caller }));
  return { ...result, artifact: { format: event.format, files: artifacts } };
}

/** A stage that could not produce its evidence (RETRO_BLOCKED for the retrospective). */
export async function recordBlocked(lc: LifecycleContext, slug: string, stage: Stage, reason: string, caller: string | null): Promise<TransitionResult> {
  await assertCanRecord(lc, slug, stage, caller);
  const fingerprint = await lc.fingerprint();
  return applyTransition(lc, slug, caller, (s) => applyEvent(s, { kind: 'blocked', stage, reason }, { now: lc.now(), fingerprint, caller }));
}

/** Resolves a blocker; whether the workspace changed since the block decides what must run again. */
export async function unblockRequirement(lc: LifecycleContext, slug: string, resolution: string, caller: string | null): Promise<TransitionResult> {
  if (resolution.trim() === '') throw new SluiceError('USAGE', { message: 'unblock needs --resolution saying what resolved the blocker' });
  const fingerprint = await lc.fingerprint();
  return applyTransition(lc, slug, caller, (s) =>
    applyEvent(s, { kind: 'unblock', resolution: resolution.trim(), workspaceChanged: fingerprint === null || !sameFingerprint(fingerprint, s.blocker?.fingerprint) }, { now: lc.now(), fingerprint, caller }),
  );
}
