import * as v from 'valibot';
import { LIMITS, REPAIR_SCOPES, RULES, STAGE_RESULTS, STAGES, STATUSES } from '../transition-table.ts';

/**
 * `.prizmkit/state/workflows/<slug>.json`: the seed's workflow-state schema (schema_version 1) plus the
 * fields sluice needs to enforce it (counters, evidence records, blocker, reroutes). It is an index, not
 * the authority: verdicts live in the artifacts. Unknown keys written by other tools survive a rewrite.
 */
const Stage = v.picklist(STAGES);
const Status = v.picklist(STATUSES);
const Timestamp = v.pipe(v.string(), v.isoTimestamp());

/** `.prizmkit/<kind>/<identity>`; the identity follows `checkSlug` (slug.ts). */
export const ArtifactDirPattern = /^\.prizmkit\/(specs|bugfix|refactor)\/[\p{L}\p{Nd}](?:[\p{L}\p{Nd}_-]*[\p{L}\p{Nd}])?$/u;

/** Git HEAD plus a hash of the uncommitted diff; a later code change gives a different fingerprint. */
export const FingerprintSchema = v.object({
  head: v.nullable(v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/))),
  diff: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)),
  /** Short content digest of every uncommitted file at that moment (path → digest), to tell which files changed later. */
  files: v.optional(v.record(v.string(), v.string())),
});
export type Fingerprint = v.InferOutput<typeof FingerprintSchema>;

const StageRecordSchema = v.object({
  status: Status,
  stage_result: v.nullable(v.picklist(STAGE_RESULTS)),
  /** The artifact the verdict was read from, relative to the project. */
  evidence: v.nullable(v.string()),
  /** The format the artifact was recognised as: `sluice`, `prizmkit-v1` ... `prizmkit-v4`. */
  format: v.optional(v.string()),
  fingerprint: v.nullable(FingerprintSchema),
  /** SHA-256 of every artifact the verdict was read from (path relative to the project → hex). */
  artifacts: v.optional(v.record(v.string(), v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)))),
  at: Timestamp,
});

export const BlockerSchema = v.object({
  rule: v.picklist(Object.keys(RULES) as (keyof typeof RULES)[]),
  stage: Stage,
  reason: v.string(),
  /** What resolves it: a change to the workspace (round limits) or an operator's note. */
  requires: v.picklist(['workspace-change', 'operator-note']),
  previous_status: v.nullable(Status),
  fingerprint: v.nullable(FingerprintSchema),
  at: Timestamp,
});
export type Blocker = v.InferOutput<typeof BlockerSchema>;

/** Every time completed_stages shrinks, this says why: the only way stages are ever un-completed. */
export const RerouteSchema = v.object({
  kind: v.picklist(['review-fixes', 'test-repair', 'review-reentry', 'unblock', 'recovery']),
  trigger: v.nullable(Status),
  repair_scope: v.nullable(v.picklist(REPAIR_SCOPES)),
  repair_round: v.number(),
  removed: v.array(Stage),
  route: v.array(Stage),
  note: v.optional(v.string()),
  at: Timestamp,
});
export type Reroute = v.InferOutput<typeof RerouteSchema>;

export const CommitRecordSchema = v.object({
  sha: v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/)),
  message: v.string(),
  paths: v.array(v.string()),
  authorized_by: v.object({
    // adopted: a person named a commit made outside sluice and confirmed it after its content was checked (adopt-commit).
    source: v.picklist(['interactive', 'config', 'signed-env', 'host-api', 'recovered', 'adopted']),
    mode: v.string(),
    owner: v.string(),
  }),
  at: Timestamp,
});

export const CommitIntentSchema = v.object({
  /** The tree the commit will have, and the commit it goes on top of. */
  tree: v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/)),
  parent: v.nullable(v.pipe(v.string(), v.regex(/^[0-9a-f]{40,64}$/))),
  message: v.string(),
  paths: v.array(v.string()),
  at: Timestamp,
});
export type CommitIntent = v.InferOutput<typeof CommitIntentSchema>;

const uniqueStages = <T>(list: T[]) => new Set(list).size === list.length;

export const WorkflowStateSchema = v.looseObject({
  schema_version: v.literal(1),
  artifact_dir: v.pipe(v.string(), v.regex(ArtifactDirPattern, 'artifact_dir must be .prizmkit/specs|bugfix|refactor/<slug>')),
  orchestrator: v.nullable(v.pipe(v.string(), v.minLength(1), v.maxLength(100))),
  /** The stage that most recently wrote state; null before the first stage. */
  stage: v.nullable(Stage),
  status: v.nullable(Status),
  stage_result: v.nullable(v.picklist(STAGE_RESULTS)),
  completed_stages: v.pipe(v.array(Stage), v.check(uniqueStages, 'completed_stages lists a stage twice')),
  repair_scope: v.nullable(v.picklist(REPAIR_SCOPES)),
  repair_round: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(LIMITS.repairRounds)),
  next_stage: v.nullable(Stage),
  resume_from: v.nullable(v.string()),
  // sluice's additions; counters live here so they survive a crash.
  review_round: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(LIMITS.reviewRounds)),
  env_recovery_round: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(LIMITS.envRecoveryRounds)),
  blocker: v.nullable(BlockerSchema),
  results: v.record(Stage, StageRecordSchema),
  reroutes: v.array(RerouteSchema),
  commit: v.nullable(CommitRecordSchema),
  /** What sluice is about to commit, recorded before `git commit`; only a commit matching it counts. */
  commit_intent: v.optional(v.nullable(CommitIntentSchema)),
  /** The journal entry this file caches (`.prizmkit/state/journal/<slug>.jsonl`). */
  journal: v.optional(v.object({ seq: v.pipe(v.number(), v.integer(), v.minValue(1)), hash: v.pipe(v.string(), v.regex(/^[0-9a-f]{64}$/)) })),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type WorkflowState = v.InferOutput<typeof WorkflowStateSchema>;
