/**
 * The requirement lifecycle's rules as data, and the only place they live (seed:
 * prizmkit-workflow-state-protocol.md): stages, statuses, the verdict rows, repair routes and the named
 * rules. apply-event.ts is the machine that applies an event to a state by them.
 *
 * Routes are not stored separately: a repair removes the stages it must redo from `completed_stages`
 * (and records that in `reroutes`), and the next stage is always the first stage in STAGES order that
 * is not completed. So REVIEW_NEEDS_FIXES → implement → code-review → test falls out of the data.
 */
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

/**
 * Production routes are the routes that run code review again; a route that skips it (test-infrastructure)
 * may change only tests and documentation, and so may a TEST_BLOCKED requirement (environment recovery).
 * Each row below names such a place, the stage whose record is checked there, and what happens when that
 * record finds production files changed since the last test: the production route instead (code review
 * and every later stage again, recorded as a reroute; row `production-route`). `instead` drops the
 * recorded result; `after` keeps it and reroutes from there. Checked only when the requirement is alone in
 * the workspace: with others open an edit may be theirs, and the commit checks the files it carries.
 */
export interface ProductionGuard {
  id: string;
  stage: Stage;
  /** Where only test infrastructure may change: a status, or the repair route the requirement is on. */
  on: { status: Status } | { route: RepairScope };
  order: 'instead' | 'after';
  why: string;
}

export const PRODUCTION_GUARDS: readonly ProductionGuard[] = [
  { id: 'test-blocked', stage: 'test', on: { status: 'TEST_BLOCKED' }, order: 'instead', why: 'production files edited while the tests were blocked' },
  {
    id: 'test-infrastructure-route',
    stage: 'implement',
    on: { route: 'test-infrastructure' },
    order: 'after',
    why: 'production files edited on the test-infrastructure route',
  },
];

/** Whether a repair route is a production route: it reviews the code again. */
export const isProductionRoute = (route: readonly Stage[]): boolean => route.includes('code-review');

/** Whether recording `stage` can meet a production guard (so the recorder looks whether it is alone in the workspace). */
export const productionGuarded = (stage: Stage): boolean => PRODUCTION_GUARDS.some((g) => g.stage === stage);

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

/** The first stage in lifecycle order that is not completed; null when everything is. */
export function firstIncompleteStage(completed: readonly Stage[]): Stage | null {
  return STAGES.find((s) => !completed.includes(s)) ?? null;
}

export function findRow(stage: Stage, verdict: Verdict): TransitionRow | undefined {
  return TRANSITIONS.find((r) => r.stage === stage && r.verdict === verdict);
}
