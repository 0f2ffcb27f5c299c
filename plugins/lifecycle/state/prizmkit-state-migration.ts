import * as v from 'valibot';
import { firstIncompleteStage, REPAIR_SCOPES, STAGE_SKILLS, STAGES, STATUSES, type Stage, type StageResult, type Status } from '../transition-table.ts';
import { completionResult, completionStatus } from './stage-completion.ts';
import { ArtifactDirPattern, type Blocker, type WorkflowState } from './workflow-state-schema.ts';

/**
 * Workflow states PrizmKit itself writes, read and migrated into sluice's form without losing the
 * repair round, the owner or a block:
 *
 * - v1 (`WORKFLOW-STATE.md`): domain statuses, plus `IMPLEMENT_REPAIR`, `PAUSED_FOR_ENVIRONMENT`;
 * - the seed and v2: adds `orchestrator` and `stage_result`;
 * - v3/v4: `status` is `pending|in_progress|completed|failed|skipped`, the result is in `stage_result`.
 *
 * Every version names the commit stage `committer`. The migrated state holds claims, not results:
 * completed stages end where the foreign state says work resumes (its `next_stage`, a stage in progress
 * or failed, a repair's first stage, whichever comes first), a commit is never claimed (only a commit
 * sluice made or a person adopted counts), and every other claim is re-read from its artifact before
 * it counts (recovery/adopt-claims.ts).
 */
const PrizmkitStage = v.picklist([...STAGES, 'committer'], `stages are ${STAGES.join(', ')} (or committer)`);
const LIFECYCLE_STATUSES = ['pending', 'in_progress', 'completed', 'failed', 'skipped'] as const;
const DOMAIN_RESULTS = [
  ...STATUSES,
  'PASS',
  'NEEDS_FIXES',
  'IMPLEMENT_REPAIR',
  'PAUSED_FOR_ENVIRONMENT',
  'DOCS_UPDATED',
  'NO_DOC_CHANGE',
  'PLAN_BLOCKED',
  'IMPLEMENT_BLOCKED',
  'COMMIT_BLOCKED',
  'TEST_NEEDS_FIXES',
] as const;
type DomainResult = (typeof DOMAIN_RESULTS)[number];

export const PrizmkitStateSchema = v.looseObject({
  schema_version: v.literal(1, 'schema_version must be 1'),
  artifact_dir: v.pipe(v.string(), v.regex(ArtifactDirPattern, 'artifact_dir must be .prizmkit/specs|bugfix|refactor/<identity>')),
  orchestrator: v.optional(v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(100)))),
  stage: v.optional(v.nullable(PrizmkitStage)),
  status: v.nullable(v.picklist([...DOMAIN_RESULTS, ...LIFECYCLE_STATUSES], 'status is not a PrizmKit status')),
  stage_result: v.optional(v.nullable(v.picklist(DOMAIN_RESULTS, 'stage_result is not a PrizmKit result'))),
  completed_stages: v.array(PrizmkitStage),
  repair_scope: v.optional(v.nullable(v.picklist(REPAIR_SCOPES))),
  repair_round: v.optional(v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3, 'repair_round is 0 to 3')), 0),
  next_stage: v.optional(v.nullable(PrizmkitStage)),
  resume_from: v.optional(v.nullable(v.string())),
});
export type PrizmkitState = v.InferOutput<typeof PrizmkitStateSchema>;

/** A state file sluice did not write: none of the records sluice keeps beside the seed's fields. */
export const isForeignState = (raw: unknown): raw is Record<string, unknown> =>
  typeof raw === 'object' && raw !== null && !Array.isArray(raw) && !('results' in raw) && !('reroutes' in raw) && !('review_round' in raw);

/** When the original was written is unknown; sluice's next write sets the real time. */
const UNKNOWN_TIME = '1970-01-01T00:00:00.000Z';
const toStage = (s: string | null | undefined): Stage | null => (s === 'committer' ? 'commit' : ((s ?? null) as Stage | null));
const at = (s: Stage) => STAGES.indexOf(s);
const earliest = (stages: (Stage | null)[]): Stage | null =>
  stages.filter((s): s is Stage => s !== null).reduce<Stage | null>((a, b) => (a === null || at(b) < at(a) ? b : a), null);

export function prizmkitStateFormat(s: PrizmkitState): string {
  if ((LIFECYCLE_STATUSES as readonly string[]).includes(s.status ?? '')) return 'prizmkit-v3';
  return 'orchestrator' in s || 'stage_result' in s ? 'prizmkit-v2' : 'prizmkit-v1';
}

/** What a foreign result means for the route: the status it stands for and where its repair starts. */
interface Reading {
  kind: 'success' | 'failure' | 'blocked' | 'none';
  status: Status | null;
  stageResult: StageResult | null;
  /** A failure's route starts here (implement for review and test fixes, test for an environment block). */
  routeStart?: Stage;
}

export function migratePrizmkitState(s: PrizmkitState): WorkflowState {
  const lifecycle = (LIFECYCLE_STATUSES as readonly string[]).includes(s.status ?? '');
  const result = (lifecycle ? (s.stage_result ?? null) : s.status) as DomainResult | null;
  const claimed = new Set(s.completed_stages.map(toStage));
  const stage = toStage(s.stage);
  const reading = readResult(result, s.repair_scope ?? null, claimed.has('test'));
  // The longest run of claimed stages in lifecycle order; a commit is never taken from a state file.
  const prefix: Stage[] = [];
  for (const st of STAGES) {
    if (st === 'commit' || !claimed.has(st)) break;
    prefix.push(st);
  }
  // A stage the state itself says is unfinished (in progress, pending, failed) is not complete.
  const unfinished = lifecycle && s.status !== 'completed' && s.status !== 'skipped' ? stage : null;
  const blockedAt = reading.kind === 'blocked' ? (stage ?? toStage(s.next_stage) ?? firstIncompleteStage(prefix) ?? 'plan') : null;
  const resume = earliest([firstIncompleteStage(prefix), toStage(s.next_stage), unfinished, reading.routeStart ?? null, blockedAt]);
  const completed = resume === null ? prefix : prefix.filter((st) => at(st) < at(resume));
  const last = completed.at(-1) ?? null;
  // A failure stands only where its route starts; anything earlier is simply the last completed stage.
  const failure = reading.kind === 'failure' && resume === reading.routeStart;
  const status: Status | null = reading.kind === 'blocked' ? 'WORKFLOW_BLOCKED' : failure ? reading.status : last ? completionStatus(last) : null;
  const stageResult =
    reading.kind === 'blocked' || failure ? reading.stageResult : last && reading.kind === 'success' ? completionResult(last, reading.stageResult) : null;
  const blocker: Blocker | null = blockedAt
    ? {
        rule: result === 'RETRO_BLOCKED' ? 'retro-blocked' : 'stage-blocked',
        stage: blockedAt,
        reason: `blocked in the PrizmKit state (${result}); resolve it, then unblock`,
        requires: 'operator-note',
        previous_status: null,
        fingerprint: null,
        at: UNKNOWN_TIME,
      }
    : null;
  const next = blocker ? blocker.stage : firstIncompleteStage(completed);
  const { artifact_dir, orchestrator, repair_round, ...rest } = s;
  return {
    schema_version: 1,
    artifact_dir,
    orchestrator: orchestrator ?? null,
    stage: blocker || failure ? (stage ?? last) : last,
    status,
    stage_result: stageResult,
    completed_stages: completed,
    repair_scope: s.repair_scope ?? null,
    repair_round,
    next_stage: next,
    resume_from: next === null ? null : STAGE_SKILLS[next],
    review_round: 0,
    env_recovery_round: 0,
    blocker,
    results: {},
    reroutes: [],
    commit: null,
    created_at: UNKNOWN_TIME,
    updated_at: UNKNOWN_TIME,
    migrated_from: { format: prizmkitStateFormat(s), original: { artifact_dir, orchestrator, repair_round, ...rest } },
  };
}

function readResult(result: DomainResult | null, scope: string | null, claimedTest: boolean): Reading {
  switch (result) {
    case null:
      return { kind: 'none', status: null, stageResult: null };
    case 'PASS':
    case 'REVIEW_PASS':
      return { kind: 'success', status: 'REVIEW_PASS', stageResult: 'PASS' };
    case 'NEEDS_FIXES':
    case 'REVIEW_NEEDS_FIXES':
      return { kind: 'failure', status: 'REVIEW_NEEDS_FIXES', stageResult: 'NEEDS_FIXES', routeStart: 'implement' };
    case 'PAUSED_FOR_ENVIRONMENT':
    case 'TEST_BLOCKED':
      return { kind: 'failure', status: 'TEST_BLOCKED', stageResult: 'TEST_BLOCKED', routeStart: 'test' };
    case 'TEST_FAIL':
    case 'TEST_NEEDS_FIXES':
      return { kind: 'failure', status: result, stageResult: result, routeStart: 'implement' };
    // The implement stage is mid-repair (v1): the failure that sent it there is the status; only a test names test-infrastructure.
    case 'IMPLEMENT_REPAIR':
      return {
        kind: 'failure',
        status: scope === 'test-infrastructure' || claimedTest ? 'TEST_FAIL' : 'REVIEW_NEEDS_FIXES',
        stageResult: null,
        routeStart: 'implement',
      };
    case 'TEST_PASS':
      return { kind: 'success', status: 'TEST_PASS', stageResult: 'TEST_PASS' };
    case 'DOCS_UPDATED':
    case 'NO_DOC_CHANGE':
      return { kind: 'success', status: 'RETRO_COMPLETE', stageResult: result };
    case 'PLAN_BLOCKED':
    case 'IMPLEMENT_BLOCKED':
    case 'RETRO_BLOCKED':
    case 'COMMIT_BLOCKED':
      return { kind: 'blocked', status: 'WORKFLOW_BLOCKED', stageResult: result };
    case 'WORKFLOW_BLOCKED':
      return { kind: 'blocked', status: 'WORKFLOW_BLOCKED', stageResult: null };
    default:
      // PLAN_READY, IMPLEMENTED, RETRO_COMPLETE, COMMIT_PENDING, COMMITTED: progress, read from completed_stages.
      return { kind: 'success', status: result, stageResult: null };
  }
}
