import * as v from 'valibot';
import { firstIncompleteStage, REPAIR_SCOPES, STAGE_SKILLS, STAGES, STATUSES, type Stage, type StageResult, type Status } from '../transition-table.ts';
import { ArtifactDirPattern, type Blocker, type WorkflowState } from './workflow-state-schema.ts';

/**
 * Workflow states PrizmKit itself writes, read and migrated into sluice's form without losing the
 * repair round, the owner or a block:
 *
 * - v1 (`WORKFLOW-STATE.md`): domain statuses, plus `IMPLEMENT_REPAIR`, `PAUSED_FOR_ENVIRONMENT`;
 * - the seed and v2: adds `orchestrator` and `stage_result`;
 * - v3/v4: `status` is `pending|in_progress|completed|failed|skipped`, the result is in `stage_result`.
 *
 * Every version may name the commit stage `committer`. A migrated state has no recorded results, so
 * none of its review/test results is trusted until sluice reads the artifacts again.
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

export function prizmkitStateFormat(s: PrizmkitState): string {
  if ((LIFECYCLE_STATUSES as readonly string[]).includes(s.status ?? '')) return 'prizmkit-v3';
  return 'orchestrator' in s || 'stage_result' in s ? 'prizmkit-v2' : 'prizmkit-v1';
}

export function migratePrizmkitState(s: PrizmkitState): WorkflowState {
  const lifecycle = (LIFECYCLE_STATUSES as readonly string[]).includes(s.status ?? '');
  const result = (lifecycle ? (s.stage_result ?? null) : s.status) as DomainResult | null;
  const completed = [...new Set(s.completed_stages.map(toStage))] as Stage[];
  const stage = toStage(s.stage);
  const mapped = mapResult(result, s.stage_result ?? null, s.repair_scope ?? null);
  const blockedStage = stage ?? toStage(s.next_stage) ?? firstIncompleteStage(completed) ?? 'plan';
  const blocker: Blocker | null =
    mapped.status === 'WORKFLOW_BLOCKED'
      ? {
          rule: result === 'RETRO_BLOCKED' ? 'retro-blocked' : 'stage-blocked',
          stage: blockedStage,
          reason: `blocked in the PrizmKit state (${result}); resolve it, then unblock`,
          requires: 'operator-note',
          previous_status: null,
          fingerprint: null,
          at: UNKNOWN_TIME,
        }
      : null;
  const next = mapped.status === 'COMMITTED' ? null : blocker ? blocker.stage : firstIncompleteStage(completed);
  const { artifact_dir, orchestrator, repair_round, ...rest } = s;
  return {
    schema_version: 1,
    artifact_dir,
    orchestrator: orchestrator ?? null,
    stage,
    status: mapped.status,
    stage_result: mapped.stageResult,
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

function mapResult(result: DomainResult | null, stageResult: string | null, scope: string | null): { status: Status | null; stageResult: StageResult | null } {
  switch (result) {
    case null:
      return { status: null, stageResult: null };
    case 'PASS':
    case 'REVIEW_PASS':
      return { status: 'REVIEW_PASS', stageResult: 'PASS' };
    case 'NEEDS_FIXES':
    case 'REVIEW_NEEDS_FIXES':
      return { status: 'REVIEW_NEEDS_FIXES', stageResult: 'NEEDS_FIXES' };
    case 'PAUSED_FOR_ENVIRONMENT':
    case 'TEST_BLOCKED':
      return { status: 'TEST_BLOCKED', stageResult: 'TEST_BLOCKED' };
    case 'TEST_PASS':
    case 'TEST_FAIL':
    case 'TEST_NEEDS_FIXES':
      return { status: result, stageResult: result };
    case 'DOCS_UPDATED':
    case 'NO_DOC_CHANGE':
      return { status: 'RETRO_COMPLETE', stageResult: result };
    case 'RETRO_COMPLETE':
      return { status: 'RETRO_COMPLETE', stageResult: stageResult === 'DOCS_UPDATED' || stageResult === 'NO_DOC_CHANGE' ? stageResult : null };
    // The implement stage is mid-repair: the failure that sent it there is the status.
    case 'IMPLEMENT_REPAIR':
      return { status: scope ? 'TEST_FAIL' : 'REVIEW_NEEDS_FIXES', stageResult: null };
    case 'PLAN_BLOCKED':
    case 'IMPLEMENT_BLOCKED':
    case 'RETRO_BLOCKED':
    case 'COMMIT_BLOCKED':
      return { status: 'WORKFLOW_BLOCKED', stageResult: result };
    case 'WORKFLOW_BLOCKED':
      return { status: 'WORKFLOW_BLOCKED', stageResult: null };
    default:
      return { status: result, stageResult: null };
  }
}
