import { SluiceError } from '../../core/index.ts';
import { hashArtifacts, staleEvidence } from './evidence/artifact-hashes.ts';
import { othersOpen } from './evidence/production-route.ts';
import { readStageEvidence, type EvidenceStage } from './evidence/read-stage-evidence.ts';
import type { LifecycleContext } from './lifecycle-context.ts';
import type { ArtifactRef } from './readers/read-artifact.ts';
import type { LifecycleTransitionEvent } from './lifecycle-hooks.ts';
import { loadRequirement, writeJournaled } from './journal/journaled-state.ts';
import { workflowStateFile } from './state/workflow-state-file.ts';
import type { WorkflowState } from './state/workflow-state-schema.ts';
import { productionGuarded, type Stage } from './transition-table.ts';
import { applyEvent, checkCanRecord, checkOwnership, type TransitionOutcome } from './apply-event.ts';
import { applyEvidence } from './apply-evidence.ts';
import { authorize, type AuthorizeOptions } from './commit/authorize-commit.ts';
import { adoptedView, adoptUnjournaled } from './recovery/adopt-claims.ts';
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

/**
 * Reads a requirement's state from its journal, checked against the state file (STATE_TAMPERED when
 * they differ); a missing state gets a hint about `start` or `recover`.
 */
export async function readWorkflowState(lc: LifecycleContext, slug: string): Promise<WorkflowState> {
  const loaded = await loadRequirement(lc, slug);
  // A state without journal is shown, and checked, as adoption will have it: its claims re-read.
  if (loaded && loaded.provenance !== 'cache-missing') return adoptedView(lc, slug, loaded);
  return missingState(lc, slug, loaded !== null);
}

/**
 * The only way lifecycle state changes: under the journal lock, load and check journal and state file,
 * apply a pure transition, validate, check the invariant and the journal rules, append to the journal,
 * write the state file (its cache), then tell `lifecycle:transition` observers.
 */
export async function applyTransition(
  lc: LifecycleContext,
  slug: string,
  caller: string | null,
  compute: (state: WorkflowState) => TransitionOutcome,
): Promise<TransitionResult> {
  let accepted: Extract<TransitionOutcome, { ok: true }> | undefined;
  const started = performance.now();
  const write = () =>
    writeJournaled(lc, slug, caller, (current) => {
      if (!current || current.provenance === 'cache-missing') missingState(lc, slug, current !== null);
      // Nothing a state without journal claims is used before it is re-read and journaled (adopt-claims.ts).
      if (current.provenance === 'unjournaled' && !checkOwnership(current.state, caller)) throw NEEDS_ADOPTION;
      const out = compute(current.state);
      if (!out.ok)
        throw new SluiceError(out.code, { file: lc.kernel.display(workflowStateFile(lc.root, slug).path), message: out.message, data: { rule: out.rule } });
      accepted = out;
      return out.state === current.state ? undefined : { state: out.state, row: out.row };
    });
  let written: Awaited<ReturnType<typeof write>> | undefined;
  for (let attempt = 1; written === undefined; attempt++) {
    try {
      written = await write();
    } catch (error) {
      if (error !== NEEDS_ADOPTION || attempt >= 3) throw error === NEEDS_ADOPTION ? adoptionRaced(lc, slug) : error;
      await adoptUnjournaled(lc, slug, caller);
    }
  }
  const { before, after } = written;
  const writeMs = performance.now() - started;
  await emitTransition(lc, { slug, from: before?.status ?? null, state: after, row: accepted!.row, caller, writeMs });
  return { slug, state: after, row: accepted!.row, ...(accepted!.rule ? { rule: accepted!.rule } : {}), next: nextInvocation(slug, after) };
}

/** Thrown out of the journal lock to adopt the state first; adoption reads artifacts and git, which a lock should not wait for. */
const NEEDS_ADOPTION = Symbol('needs adoption');

const adoptionRaced = (lc: LifecycleContext, slug: string) =>
  new SluiceError('LOCK_BUSY', {
    file: lc.kernel.display(workflowStateFile(lc.root, slug).path),
    message: `the state file of ${slug} kept changing while sluice adopted it; nothing was written`,
  });

function missingState(lc: LifecycleContext, slug: string, journaled: boolean): never {
  throw new SluiceError('STATE_MISSING', {
    file: lc.kernel.display(workflowStateFile(lc.root, slug).path),
    message: journaled ? `the state file of ${slug} is missing; its journal is intact` : `requirement ${slug} has no workflow state`,
    hint: journaled ? `run \`sluice lifecycle recover ${slug}\`` : `run \`sluice lifecycle start ${slug}\``,
  });
}

export async function emitTransition(
  lc: LifecycleContext,
  e: { slug: string; from: WorkflowState['status']; state: WorkflowState; row: string; caller: string | null; writeMs: number },
): Promise<void> {
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
  if (refused)
    throw new SluiceError(refused.code, {
      file: lc.kernel.display(workflowStateFile(lc.root, slug).path),
      message: refused.message,
      data: { rule: refused.rule },
    });
  return state;
}

/**
 * Records a stage's result from its artifact, with the workspace fingerprint at this moment and the hash
 * of every artifact it was read from. Evidence byte-identical to what the stage produced before a reroute
 * sent it back is refused (EVIDENCE_STALE).
 */
export async function recordStage(lc: LifecycleContext, slug: string, stage: EvidenceStage, caller: string | null): Promise<TransitionResult> {
  const repeat = await repeatedRecord(lc, slug, stage, caller);
  if (repeat) return repeat;
  const state = await assertCanRecord(lc, slug, stage, caller);
  const { artifacts: refs, ...event } = await readStageEvidence(lc.host, lc.root, state.artifact_dir, stage, state);
  const artifacts = await hashArtifacts(lc, [event.evidence, ...refs.map((r) => r.file)]);
  const fingerprint = await lc.fingerprint();
  const now = lc.now();
  // Alone in the workspace, a production edit is this requirement's; with others open the commit checks its own files.
  const alone = productionGuarded(stage) && !(await othersOpen(lc, slug));
  const result = await applyTransition(lc, slug, caller, (s) => {
    const stale = event.kind === 'verdict' ? staleEvidence(s, stage, artifacts, fingerprint) : undefined;
    if (stale) throw new SluiceError('EVIDENCE_STALE', { file: event.evidence ?? undefined, message: stale, data: { stage } });
    return applyEvidence(s, event, { now, fingerprint, caller, artifacts, alone });
  });
  return { ...result, artifact: { format: event.format, files: refs } };
}

/**
 * A run killed after its journal entry was written (the state file one entry behind) is repeated by its
 * caller: recording the stage that was recorded last, from the very same artifacts, then only brings the
 * state file up to the journal and reports the state. Nothing is recorded twice; with an up-to-date state
 * file a repeat is refused by the stage order as usual.
 */
async function repeatedRecord(lc: LifecycleContext, slug: string, stage: EvidenceStage, caller: string | null): Promise<TransitionResult | undefined> {
  const loaded = await loadRequirement(lc, slug);
  if (loaded?.provenance !== 'cache-behind') return undefined;
  const state = loaded.state;
  const last = state.results[stage];
  if (state.stage !== stage || state.next_stage === stage || !last?.artifacts || last.at !== state.updated_at || checkOwnership(state, caller))
    return undefined;
  const now = await hashArtifacts(lc, Object.keys(last.artifacts));
  if (Object.keys(last.artifacts).some((k) => last.artifacts![k] !== now[k])) return undefined;
  // Decided again under the journal lock: another process may have brought the file up to date meanwhile.
  const head = loaded.journal!.entries.at(-1)!.hash;
  let repeat = false;
  const { after } = await writeJournaled(lc, slug, caller, (current) => {
    repeat = current?.provenance === 'cache-behind' && current.journal!.entries.at(-1)!.hash === head;
    return undefined;
  });
  if (!repeat) return undefined;
  await emitTransition(lc, { slug, from: after.status, state: after, row: 'repeat', caller, writeMs: 0 });
  return { slug, state: after, row: 'repeat', next: nextInvocation(slug, after) };
}

/** A stage that could not produce its evidence (RETRO_BLOCKED for the retrospective). */
export async function recordBlocked(lc: LifecycleContext, slug: string, stage: Stage, reason: string, caller: string | null): Promise<TransitionResult> {
  await assertCanRecord(lc, slug, stage, caller);
  const fingerprint = await lc.fingerprint();
  return applyTransition(lc, slug, caller, (s) => applyEvent(s, { kind: 'blocked', stage, reason }, { now: lc.now(), fingerprint, caller }));
}

/**
 * Resolves a blocker; whether the workspace changed since the block decides what must run again. A
 * round-limit block (the repair or review loop ran out) is lifted only with the authority a commit needs:
 * the agent that ran out of rounds cannot grant itself more.
 */
export async function unblockRequirement(
  lc: LifecycleContext,
  slug: string,
  resolution: string,
  caller: string | null,
  authority: AuthorizeOptions = {},
): Promise<TransitionResult> {
  if (resolution.trim() === '') throw new SluiceError('USAGE', { message: 'unblock needs --resolution saying what resolved the blocker' });
  const state = await readWorkflowState(lc, slug);
  const owner = checkOwnership(state, caller);
  if (owner && !owner.ok)
    throw new SluiceError(owner.code, { file: lc.kernel.display(workflowStateFile(lc.root, slug).path), message: owner.message, data: { rule: owner.rule } });
  if (state.status === 'WORKFLOW_BLOCKED' && state.blocker && ROUND_LIMITS.has(state.blocker.rule)) {
    await authorize(
      lc,
      {
        slug,
        action: 'unblock',
        preview: `${slug} is blocked by ${state.blocker.rule}: ${state.blocker.reason}\nresolution: ${resolution.trim()}`,
        question: `Lift the ${state.blocker.rule} block of ${slug}?`,
      },
      authority,
    );
  }
  const fingerprint = await lc.fingerprint();
  return applyTransition(lc, slug, caller, (s) =>
    applyEvent(
      s,
      { kind: 'unblock', resolution: resolution.trim(), workspaceChanged: fingerprint === null || !sameFingerprint(fingerprint, s.blocker?.fingerprint) },
      { now: lc.now(), fingerprint, caller },
    ),
  );
}

/** Blocks that mean the agent used up its rounds. */
const ROUND_LIMITS = new Set<string>(['repair-round-limit', 'review-round-limit', 'env-recovery-limit']);
