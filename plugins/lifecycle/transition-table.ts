/**
 * The requirement lifecycle's rules, and the only place they live (seed: prizmkit-workflow-state-protocol.md).
 * Pure data and pure functions, no I/O: callers read evidence from artifacts, pass it in as an event,
 * and write whatever `applyEvent` returns through the state store. Every refusal names its rule.
 *
 * Routes are not stored separately: a repair removes the stages it must redo from `completed_stages`
 * (and records that in `reroutes`), and the next stage is always the first stage in STAGES order that
 * is not completed. So REVIEW_NEEDS_FIXES → implement → code-review → test falls out of the data.
 */
import type { Blocker, Fingerprint, Reroute, WorkflowState } from './state/workflow-state-schema.ts';
import './lifecycle-errors.ts';

export const STAGES = ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit'] as const;
export type Stage = (typeof STAGES)[number];

/** Stage names as PrizmKit writes them: its skill `prizmkit-committer` names the commit stage `committer`. */
export const STAGE_ALIASES: Readonly<Record<string, Stage>> = { committer: 'commit' };

export function parseStage(name: string): Stage | undefined {
  return (STAGES as readonly string[]).includes(name) ? (name as Stage) : STAGE_ALIASES[name];
}

/** The atomic skill that resumes each stage (`resume_from`). */
export const STAGE_SKILLS: Readonly<Record<Stage, string>> = {
  plan: 'prizmkit-plan',
  implement: 'prizmkit-implement',
  'code-review': 'prizmkit-code-review',
  test: 'prizmkit-test',
  retrospective: 'prizmkit-retrospective',
  commit: 'prizmkit-committer',
};

/** The mandatory formal lifecycle; no stage is silently optional. */
export const STATUS_CHAIN = ['PLAN_READY', 'IMPLEMENTED', 'REVIEW_PASS', 'TEST_PASS', 'RETRO_COMPLETE', 'COMMIT_PENDING', 'COMMITTED'] as const;
export const STATUSES = [...STATUS_CHAIN, 'REVIEW_NEEDS_FIXES', 'TEST_FAIL', 'TEST_NEEDS_FIXES', 'TEST_BLOCKED', 'RETRO_BLOCKED', 'WORKFLOW_BLOCKED'] as const;
export type Status = (typeof STATUSES)[number];

export const STAGE_RESULTS = [
  'PASS',
  'NEEDS_FIXES',
  'TEST_PASS',
  'TEST_FAIL',
  'TEST_NEEDS_FIXES',
  'TEST_BLOCKED',
  'DOCS_UPDATED',
  'NO_DOC_CHANGE',
  'RETRO_BLOCKED',
  'PLAN_BLOCKED',
  'IMPLEMENT_BLOCKED',
  'COMMIT_BLOCKED',
] as const;
export type StageResult = (typeof STAGE_RESULTS)[number];

export const REPAIR_SCOPES = ['test-infrastructure', 'production', 'runtime', 'schema', 'dependency', 'public-interface', 'unknown'] as const;
export type RepairScope = (typeof REPAIR_SCOPES)[number];

export const LIMITS = {
  /** Outer cross-stage repair rounds (`repair_round` 0..3): every route back to implement (review fixes, test repairs) and every re-review after a test changed production code. */
  repairRounds: 3,
  /** Main Review Rounds inside one code review (the report's own loop); checked on the report, never an outer round. */
  reviewRounds: 10,
  /** Environment recovery attempts after TEST_BLOCKED before the workflow blocks. */
  envRecoveryRounds: 2,
} as const;

export type Verdict =
  | 'PLAN_READY'
  | 'IMPLEMENTED'
  | 'PASS'
  | 'NEEDS_FIXES'
  | 'TEST_PASS'
  | 'TEST_PASS_PRODUCTION_CHANGED'
  | 'TEST_FAIL'
  | 'TEST_NEEDS_FIXES'
  | 'TEST_BLOCKED'
  | 'DOCS_UPDATED'
  | 'NO_DOC_CHANGE'
  | 'COMMIT_PENDING'
  | 'COMMITTED';

/** What a row does besides setting status: finish the stage, start a repair route, retry, or wait. */
export type Effect = 'complete' | 'review-fixes' | 'test-repair' | 'review-reentry' | 'env-recovery' | 'await-authorization';

export interface TransitionRow {
  id: string;
  stage: Stage;
  verdict: Verdict;
  status: Status;
  stageResult: StageResult | null;
  effect: Effect;
}

/** The verdict mappings of the seed, one row per (stage, verdict). */
export const TRANSITIONS: readonly TransitionRow[] = [
  { id: 'plan-ready', stage: 'plan', verdict: 'PLAN_READY', status: 'PLAN_READY', stageResult: null, effect: 'complete' },
  { id: 'implemented', stage: 'implement', verdict: 'IMPLEMENTED', status: 'IMPLEMENTED', stageResult: null, effect: 'complete' },
  { id: 'review-pass', stage: 'code-review', verdict: 'PASS', status: 'REVIEW_PASS', stageResult: 'PASS', effect: 'complete' },
  { id: 'review-needs-fixes', stage: 'code-review', verdict: 'NEEDS_FIXES', status: 'REVIEW_NEEDS_FIXES', stageResult: 'NEEDS_FIXES', effect: 'review-fixes' },
  { id: 'test-pass', stage: 'test', verdict: 'TEST_PASS', status: 'TEST_PASS', stageResult: 'TEST_PASS', effect: 'complete' },
  // A pass whose test stage changed production code: the earlier review no longer covers it (PrizmKit v4).
  {
    id: 'test-pass-production-changed',
    stage: 'test',
    verdict: 'TEST_PASS_PRODUCTION_CHANGED',
    status: 'TEST_PASS',
    stageResult: 'TEST_PASS',
    effect: 'review-reentry',
  },
  { id: 'test-fail', stage: 'test', verdict: 'TEST_FAIL', status: 'TEST_FAIL', stageResult: 'TEST_FAIL', effect: 'test-repair' },
  // PrizmKit v2–v4's non-pass: a known correction remains; the full production route fixes it.
  { id: 'test-needs-fixes', stage: 'test', verdict: 'TEST_NEEDS_FIXES', status: 'TEST_NEEDS_FIXES', stageResult: 'TEST_NEEDS_FIXES', effect: 'test-repair' },
  { id: 'test-blocked', stage: 'test', verdict: 'TEST_BLOCKED', status: 'TEST_BLOCKED', stageResult: 'TEST_BLOCKED', effect: 'env-recovery' },
  { id: 'retro-docs-updated', stage: 'retrospective', verdict: 'DOCS_UPDATED', status: 'RETRO_COMPLETE', stageResult: 'DOCS_UPDATED', effect: 'complete' },
  { id: 'retro-no-doc-change', stage: 'retrospective', verdict: 'NO_DOC_CHANGE', status: 'RETRO_COMPLETE', stageResult: 'NO_DOC_CHANGE', effect: 'complete' },
  { id: 'commit-pending', stage: 'commit', verdict: 'COMMIT_PENDING', status: 'COMMIT_PENDING', stageResult: null, effect: 'await-authorization' },
  { id: 'committed', stage: 'commit', verdict: 'COMMITTED', status: 'COMMITTED', stageResult: null, effect: 'complete' },
];

/** Stages each repair redoes, in order. test-infrastructure skips review; every code-touching scope is reviewed again. */
export const REPAIR_ROUTES: Readonly<Record<RepairScope | 'review-fixes', readonly Stage[]>> = {
  'review-fixes': ['implement', 'code-review', 'test'],
  'test-infrastructure': ['implement', 'test'],
  production: ['implement', 'code-review', 'test'],
  runtime: ['implement', 'code-review', 'test'],
  schema: ['implement', 'code-review', 'test'],
  dependency: ['implement', 'code-review', 'test'],
  'public-interface': ['implement', 'code-review', 'test'],
  // Only when the verdict names concrete failures (see `unknown-scope-unsafe`); the conservative full route.
  unknown: ['implement', 'code-review', 'test'],
};

/** What a blocked stage records as its result (PrizmKit v3/v4 names); code-review and test keep their last one. */
export const BLOCKED_RESULTS: Partial<Record<Stage, StageResult>> = {
  plan: 'PLAN_BLOCKED',
  implement: 'IMPLEMENT_BLOCKED',
  retrospective: 'RETRO_BLOCKED',
  commit: 'COMMIT_BLOCKED',
};

/** Stages whose results a later code change makes stale: they must run again. */
export const CODE_SENSITIVE_STAGES: readonly Stage[] = ['code-review', 'test', 'retrospective', 'commit'];

export const RULES = {
  'orchestrator-ownership': 'only the recorded orchestrator may advance this requirement',
  'stage-order': 'a stage result is accepted only for the next stage of the lifecycle',
  'committed-is-final': 'a committed requirement does not change any more',
  'blocked-until-resolved': 'WORKFLOW_BLOCKED resumes only after the recorded blocker is resolved',
  'test-blocked-no-production-edits': 'TEST_BLOCKED never leads to production edits; only the test stage may run (environment recovery)',
  'test-fail-needs-scope': 'TEST_FAIL must name its repair_scope',
  'repair-round-limit': `at most ${LIMITS.repairRounds} outer repair rounds (review fixes, test repairs and re-reviews after production changes all count)`,
  // Kept so states blocked by it before repair rounds counted review fixes still read; no longer produced.
  'review-round-limit': `at most ${LIMITS.reviewRounds} completed review rounds in one review loop`,
  'env-recovery-limit': `at most ${LIMITS.envRecoveryRounds} environment recovery attempts after TEST_BLOCKED`,
  'unknown-scope-unsafe': 'repair_scope unknown takes the conservative production route only when the verdict names concrete failures',
  'retro-blocked': 'RETRO_BLOCKED becomes WORKFLOW_BLOCKED',
  'stage-blocked': 'a stage that cannot produce its evidence blocks the workflow',
  'commit-needs-pending': 'COMMITTED only after COMMIT_PENDING (preview and authorization)',
  'unblock-needs-blocker': 'only a blocked workflow can be unblocked',
} as const;
export type RuleId = keyof typeof RULES;

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

/** The first stage in lifecycle order that is not completed; null when everything is. */
export function firstIncompleteStage(completed: readonly Stage[]): Stage | null {
  return STAGES.find((s) => !completed.includes(s)) ?? null;
}

export function findRow(stage: Stage, verdict: Verdict): TransitionRow | undefined {
  return TRANSITIONS.find((r) => r.stage === stage && r.verdict === verdict);
}

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
