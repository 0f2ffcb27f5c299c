/**
 * The lifecycle's machine: applies one event (a verdict, a block, an unblock) to a requirement's state by
 * the rows and rules of transition-table.ts. Pure functions, no I/O: callers read evidence from
 * artifacts, pass it in as an event, and write whatever `applyEvent` (or, for a stage's evidence,
 * `applyEvidence` of apply-evidence.ts) returns through the state store. Every refusal names its rule.
 */
import type { Blocker, Fingerprint, Reroute, WorkflowState } from './state/workflow-state-schema.ts';
import {
  BLOCKED_RESULTS,
  CODE_SENSITIVE_STAGES,
  LIMITS,
  REPAIR_ROUTES,
  RULES,
  STAGE_SKILLS,
  findRow,
  firstIncompleteStage,
  type RepairScope,
  type RuleId,
  type Stage,
  type StageResult,
  type Status,
  type TransitionRow,
  type Verdict,
} from './transition-table.ts';

export type LifecycleEvent =
  | {
      kind: 'verdict';
      stage: Stage;
      verdict: Verdict;
      repairScope?: RepairScope | null;
      failureCount?: number;
      evidence?: string | null;
      /** The format the artifact was recognised as (`prizmkit-v4`, `sluice`, ...). */
      format?: string;
      commit?: WorkflowState['commit'];
    }
  | { kind: 'blocked'; stage: Stage; reason: string; evidence?: string | null; format?: string }
  | { kind: 'unblock'; resolution: string; workspaceChanged: boolean };

export interface EventContext {
  now: string;
  fingerprint: Fingerprint | null;
  /** Who is recording: the orchestrator id, or null for direct stage use. */
  caller: string | null;
}

export type TransitionOutcome =
  | { ok: true; state: WorkflowState; row: string; rule?: RuleId }
  | { ok: false; rule: RuleId; code: 'LIFECYCLE_RULE' | 'ORCHESTRATOR_MISMATCH'; message: string };

const refusal = (
  rule: RuleId,
  detail: string,
  code: 'LIFECYCLE_RULE' | 'ORCHESTRATOR_MISMATCH' = 'LIFECYCLE_RULE',
): Extract<TransitionOutcome, { ok: false }> => ({
  ok: false,
  rule,
  code,
  message: `rule ${rule} (${RULES[rule]}): ${detail}`,
});
const refuse: (rule: RuleId, detail: string, code?: 'LIFECYCLE_RULE' | 'ORCHESTRATOR_MISMATCH') => TransitionOutcome = refusal;

/** Ownership: with an orchestrator recorded, only that orchestrator may advance. */
export function checkOwnership(state: WorkflowState, caller: string | null): TransitionOutcome | undefined {
  if (state.orchestrator === null || state.orchestrator === caller) return undefined;
  return refuse('orchestrator-ownership', `owned by ${state.orchestrator}, called by ${caller ?? 'a direct stage call'}`, 'ORCHESTRATOR_MISMATCH');
}

/**
 * Whether `caller` may record a result for `stage` now (ownership, finality, blocker, order). Callers
 * check this before reading evidence, so a wrong move is reported by its rule, not by a missing file.
 */
export function checkCanRecord(state: WorkflowState, stage: Stage, caller: string | null): Extract<TransitionOutcome, { ok: false }> | undefined {
  const owner = checkOwnership(state, caller);
  if (owner && !owner.ok) return owner;
  if (state.status === 'COMMITTED') return refusal('committed-is-final', `${state.artifact_dir} was committed as ${state.commit?.sha ?? '?'}`);
  if (state.status === 'WORKFLOW_BLOCKED') {
    return refusal('blocked-until-resolved', `blocked by rule ${state.blocker?.rule ?? '?'}: ${state.blocker?.reason ?? ''}; resolve it, then unblock`);
  }
  if (stage !== state.next_stage) {
    if (state.status === 'TEST_BLOCKED' && stage === 'implement') return refusal('test-blocked-no-production-edits', 'the test stage must run again');
    return refusal('stage-order', `got ${stage}, the next stage is ${state.next_stage ?? 'none'}`);
  }
  return undefined;
}

/** Applies one event to a state; returns the new state or the rule that refuses it. */
export function applyEvent(state: WorkflowState, event: LifecycleEvent, ctx: EventContext): TransitionOutcome {
  if (event.kind === 'unblock') {
    const owner = checkOwnership(state, ctx.caller);
    if (owner) return owner;
    if (state.status === 'COMMITTED') return refuse('committed-is-final', `${state.artifact_dir} was committed`);
    return applyUnblock(state, event, ctx);
  }
  const refused = checkCanRecord(state, event.stage, ctx.caller);
  if (refused) return refused;
  if (event.kind === 'blocked') {
    const rule: RuleId = event.stage === 'retrospective' ? 'retro-blocked' : 'stage-blocked';
    return block(state, ctx, event.stage, rule, event.reason, 'operator-note', BLOCKED_RESULTS[event.stage] ?? state.stage_result);
  }
  const row = findRow(event.stage, event.verdict);
  if (!row) return refuse('stage-order', `${event.verdict} is not a verdict of stage ${event.stage}`);
  return applyRow(state, row, event, ctx);
}

function applyRow(state: WorkflowState, row: TransitionRow, event: Extract<LifecycleEvent, { kind: 'verdict' }>, ctx: EventContext): TransitionOutcome {
  const base = recordResult(state, row, event, ctx);
  switch (row.effect) {
    case 'complete': {
      if (row.verdict === 'COMMITTED' && state.status !== 'COMMIT_PENDING') return refuse('commit-needs-pending', `status is ${state.status ?? 'new'}`);
      const completed = [...state.completed_stages, row.stage];
      const extra: Partial<WorkflowState> = row.stage === 'test' ? { repair_scope: null } : {};
      if (row.verdict === 'COMMITTED') extra.commit = event.commit ?? null;
      const review = row.stage === 'code-review' ? { review_round: state.review_round + 1 } : {};
      return ok(withNext({ ...base, ...extra, ...review, completed_stages: completed }), row.id);
    }
    case 'await-authorization':
      return ok(withNext(base), row.id);
    case 'review-fixes': {
      const reviewed = { ...base, review_round: Math.min(state.review_round + 1, LIMITS.reviewRounds) };
      if (state.repair_round >= LIMITS.repairRounds) {
        return block(
          reviewed,
          ctx,
          row.stage,
          'repair-round-limit',
          `repair round ${state.repair_round} of ${LIMITS.repairRounds} used; the review still needs fixes`,
          'workspace-change',
          row.stageResult,
        );
      }
      return ok(reroute({ ...reviewed, repair_round: state.repair_round + 1 }, ctx, 'review-fixes', REPAIR_ROUTES['review-fixes'], row.status), row.id);
    }
    case 'review-reentry': {
      if (state.repair_round >= LIMITS.repairRounds) {
        return block(
          { ...base, repair_scope: 'production' },
          ctx,
          row.stage,
          'repair-round-limit',
          `repair round ${state.repair_round} of ${LIMITS.repairRounds} used; the test stage changed production code again`,
          'workspace-change',
          row.stageResult,
        );
      }
      const next = { ...base, stage_result: null, repair_scope: 'production' as const, repair_round: state.repair_round + 1, review_round: 0 };
      return ok(
        reroute(next, ctx, 'review-reentry', ['code-review', 'test'], row.status, 'the test stage changed production code; review the delta, then test again'),
        row.id,
      );
    }
    case 'test-repair': {
      const scope = event.repairScope ?? null;
      if (scope === null) return refuse('test-fail-needs-scope', 'the verdict has no repair_scope');
      if (scope === 'unknown' && !((event.failureCount ?? 0) > 0)) {
        return block(
          { ...base, repair_scope: scope },
          ctx,
          row.stage,
          'unknown-scope-unsafe',
          'repair_scope is unknown and the verdict names no failing test',
          'operator-note',
          row.stageResult,
        );
      }
      if (state.repair_round >= LIMITS.repairRounds) {
        return block(
          { ...base, repair_scope: scope },
          ctx,
          row.stage,
          'repair-round-limit',
          `repair round ${state.repair_round} of ${LIMITS.repairRounds} used; tests still fail (${scope})`,
          'workspace-change',
          row.stageResult,
        );
      }
      const next = { ...base, repair_scope: scope, repair_round: state.repair_round + 1, review_round: 0 };
      return ok(reroute(next, ctx, 'test-repair', REPAIR_ROUTES[scope], row.status), `${row.id}:${scope}`);
    }
    case 'env-recovery': {
      if (state.env_recovery_round >= LIMITS.envRecoveryRounds) {
        return block(
          { ...base, repair_scope: event.repairScope ?? null },
          ctx,
          row.stage,
          'env-recovery-limit',
          `the test stage is still blocked after ${state.env_recovery_round} environment recovery attempts`,
          'operator-note',
          row.stageResult,
        );
      }
      return ok(withNext({ ...base, repair_scope: event.repairScope ?? null, env_recovery_round: state.env_recovery_round + 1 }), row.id);
    }
  }
}

/** The fields every accepted verdict sets: status, result, who wrote it, and the stage's evidence record. */
function recordResult(state: WorkflowState, row: TransitionRow, event: Extract<LifecycleEvent, { kind: 'verdict' }>, ctx: EventContext): WorkflowState {
  return {
    ...state,
    stage: row.stage,
    status: row.status,
    stage_result: row.stageResult,
    results: {
      ...state.results,
      [row.stage]: {
        status: row.status,
        stage_result: row.stageResult,
        evidence: event.evidence ?? null,
        ...(event.format ? { format: event.format } : {}),
        fingerprint: ctx.fingerprint,
        at: ctx.now,
      },
    },
    updated_at: ctx.now,
  };
}

function withNext(state: WorkflowState): WorkflowState {
  const next = state.status === 'COMMITTED' ? null : firstIncompleteStage(state.completed_stages);
  return { ...state, next_stage: next, resume_from: next === null ? null : STAGE_SKILLS[next] };
}

function ok(state: WorkflowState, row: string, rule?: RuleId): TransitionOutcome {
  return { ok: true, state, row, ...(rule ? { rule } : {}) };
}

/** Starts a repair route: the route's stages leave completed_stages, and the removal is recorded. */
function reroute(state: WorkflowState, ctx: EventContext, kind: Reroute['kind'], route: readonly Stage[], trigger: Status, note?: string): WorkflowState {
  const removed = state.completed_stages.filter((s) => route.includes(s));
  const entry: Reroute = {
    kind,
    trigger,
    repair_scope: state.repair_scope,
    repair_round: state.repair_round,
    removed,
    route: [...route],
    ...(note ? { note } : {}),
    at: ctx.now,
  };
  return withNext({ ...state, completed_stages: state.completed_stages.filter((s) => !removed.includes(s)), reroutes: [...state.reroutes, entry] });
}

function block(
  state: WorkflowState,
  ctx: EventContext,
  stage: Stage,
  rule: RuleId,
  reason: string,
  requires: Blocker['requires'],
  stageResult: StageResult | null,
): TransitionOutcome {
  const blocker: Blocker = {
    rule,
    stage,
    reason,
    requires,
    previous_status: state.status === 'WORKFLOW_BLOCKED' ? null : state.status,
    fingerprint: ctx.fingerprint,
    at: ctx.now,
  };
  const next = withNext(state);
  return ok(
    {
      ...next,
      stage,
      status: 'WORKFLOW_BLOCKED',
      stage_result: stageResult,
      blocker,
      updated_at: ctx.now,
      next_stage: stage,
      resume_from: STAGE_SKILLS[stage],
    },
    `blocked:${rule}`,
    rule,
  );
}

/**
 * Resolving a blocker. Round limits need the workspace to have changed (someone fixed it); other blockers
 * need an operator's note. A changed workspace makes every code-sensitive result stale, so they run again.
 */
function applyUnblock(state: WorkflowState, event: Extract<LifecycleEvent, { kind: 'unblock' }>, ctx: EventContext): TransitionOutcome {
  const blocker = state.blocker;
  if (state.status !== 'WORKFLOW_BLOCKED' || !blocker) return refuse('unblock-needs-blocker', `status is ${state.status ?? 'new'}`);
  if (blocker.requires === 'workspace-change' && !event.workspaceChanged) {
    return refuse('blocked-until-resolved', `blocker ${blocker.rule} needs a change to the workspace since ${blocker.at}; nothing changed`);
  }
  const route = event.workspaceChanged ? CODE_SENSITIVE_STAGES : [];
  const counters = {
    review_round: blocker.rule === 'review-round-limit' ? 0 : state.review_round,
    env_recovery_round: blocker.rule === 'env-recovery-limit' ? 0 : state.env_recovery_round,
  };
  const unblocked: WorkflowState = { ...state, ...counters, status: blocker.previous_status, blocker: null, updated_at: ctx.now };
  return ok(reroute(unblocked, ctx, 'unblock', route, 'WORKFLOW_BLOCKED', event.resolution), `unblock:${blocker.rule}`);
}
