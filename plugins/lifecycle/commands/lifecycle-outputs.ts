import * as v from 'valibot';
import { commandOutput, ErrorOutputSchema, SandboxUseSchema } from '../../../core/index.ts';
import { BlockerSchema } from '../state/workflow-state-schema.ts';
import { REPAIR_SCOPES, STAGE_RESULTS, STAGES, STATUSES } from '../transition-table.ts';

/** The --json documents of the `lifecycle` commands. */

const Stage = v.picklist(STAGES);
const Status = v.nullable(v.picklist(STATUSES));
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));
const Freshness = v.picklist(['fresh', 'stale', 'unknown', 'not-applicable']);

/** What runs next and the exact command (record-stage.ts nextInvocation); sluice never runs it itself here. */
const NextInvocation = v.strictObject({
  stage: v.nullable(Stage),
  skill: v.nullable(v.string()),
  blocked: v.boolean(),
  command: v.nullable(v.string()),
  ran: v.literal(false),
});

/** state-summary.ts summarizeState. */
const summary = {
  slug: v.string(),
  artifactDir: v.string(),
  orchestrator: v.nullable(v.string()),
  status: Status,
  stage: v.nullable(Stage),
  stageResult: v.nullable(v.picklist(STAGE_RESULTS)),
  completedStages: v.array(Stage),
  nextStage: v.nullable(Stage),
  resumeFrom: v.nullable(v.string()),
  repairScope: v.nullable(v.picklist(REPAIR_SCOPES)),
  repairRound: Count,
  reviewRound: Count,
  envRecoveryRound: Count,
  blocker: v.nullable(BlockerSchema),
  artifacts: v.record(v.string(), v.strictObject({ file: v.nullable(v.string()), format: v.nullable(v.string()) })),
  commit: v.nullable(v.string()),
};

export const LifecycleStartOutput = commandOutput({ ...summary, created: v.boolean(), specWritten: v.boolean(), next: NextInvocation });

export const LifecycleNextOutput = commandOutput({
  slug: v.string(),
  status: Status,
  orchestrator: v.nullable(v.string()),
  next: NextInvocation,
  freshness: Freshness,
  blocker: v.nullable(BlockerSchema),
});

export const LifecycleRecordOutput = commandOutput({
  ...summary,
  row: v.pipe(v.string(), v.description('The transition-table row that applied.')),
  rule: v.optional(v.string()),
  artifact: v.optional(v.strictObject({ format: v.string(), files: v.array(v.strictObject({ file: v.string(), sha256: v.string(), format: v.string() })) })),
  next: NextInvocation,
});

export const LifecycleRecoverOutput = commandOutput({
  ...summary,
  steps: v.array(v.strictObject({ step: v.number(), title: v.string(), finding: v.string() })),
  previous: v.nullable(v.strictObject({ status: Status, completedStages: v.array(Stage), nextStage: v.nullable(Stage) })),
  removed: v.array(Stage),
  added: v.array(Stage),
  written: v.boolean(),
  movedAside: v.optional(v.string()),
  unrecognizedCommit: v.optional(v.string()),
  next: NextInvocation,
});

export const LifecycleStatusOutput = commandOutput({
  requirements: v.array(
    v.union([
      v.strictObject({
        ...summary,
        freshness: Freshness,
        records: v.strictObject({
          journal: v.picklist(['journal', 'cache-missing', 'cache-behind', 'unjournaled']),
          entries: Count,
          anchor: v.pipe(
            v.picklist(['verified', 'unanchored']),
            v.description(
              "verified: the journal agrees with this machine's anchor and every later entry carries this person's HMAC; unanchored: no anchor here (a fresh clone, another machine) until a person runs `sluice anchor`",
            ),
          ),
          unanchoredThrough: v.optional(
            v.pipe(
              Count,
              v.description('entries up to this one were accepted here without an anchor (written elsewhere); `sluice anchor` after checking them'),
            ),
          ),
        }),
        commitUnrecognized: v.optional(
          v.pipe(
            v.strictObject({ head: v.string(), commit: v.string() }),
            v.description('HEAD no longer contains the commit sluice made (it was amended or replaced): COMMIT_UNRECOGNIZED'),
          ),
        ),
      }),
      v.strictObject({ slug: v.string(), error: ErrorOutputSchema.entries.error }),
    ]),
  ),
});

const Outcome = v.picklist(['committed', 'blocked', 'awaiting-authorization', 'busy', 'failed', 'interrupted']);

export const LifecycleRunOutput = commandOutput({
  requirements: v.array(
    v.strictObject({
      slug: v.string(),
      outcome: Outcome,
      status: Status,
      nextStage: v.nullable(Stage),
      staleReset: v.array(Stage),
      stages: v.array(
        v.strictObject({
          stage: Stage,
          attempt: v.number(),
          delegate: v.picklist(['ok', 'error', 'timeout', 'cancelled']),
          transcript: v.string(),
          sandbox: v.optional(v.pipe(SandboxUseSchema, v.description('The OS sandbox the stage ran in, or why none (`off`: chosen).'))),
          result: v.optional(Status),
        }),
      ),
      commit: v.optional(v.string()),
      blocker: v.optional(v.nullable(BlockerSchema)),
      unblock: v.optional(v.string()),
      error: v.optional(v.strictObject({ code: v.string(), message: v.string() })),
      // Only on workers (`--queue`, `--remote`): where the requirement's records and commit are on the remote.
      checkpoint: v.optional(v.pipe(v.string(), v.description('the last checkpoint commit, at refs/sluice/checkpoints/<slug> on the remote'))),
      branch: v.optional(v.pipe(v.string(), v.description('the branch the commit was pushed to (sluice/<slug>)'))),
      resumedFrom: v.optional(v.pipe(v.string(), v.description('the checkpoint this run resumed from'))),
      recovery: v.optional(v.pipe(v.string(), v.description('where recover, run on that checkpoint, resumed'))),
      authorization: v.optional(v.pipe(v.string(), v.description('why the workers could not commit'))),
      localRecords: v.optional(v.pipe(v.string(), v.description("why this project's journal and state did not take the worker's"))),
    }),
  ),
  counts: v.record(Outcome, Count),
  durationMs: v.number(),
});
