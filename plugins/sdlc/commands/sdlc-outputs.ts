import * as v from 'valibot';
import { commandOutput } from '../../../core/index.ts';
import { ResultSeveritySchema, GateResultSchema } from '../state/gate-result-schema.ts';
import { AcceptedWaiverSchema, ApprovalSchema, GateSummarySchema, HistoryEntrySchema } from '../state/history-schema.ts';
import { SdlcStateSchema } from '../state/state-schema.ts';

/** The --json documents of the SDLC commands that move or check phases (the views have their own). */

const PhaseRef = v.strictObject({ id: v.string(), name: v.string(), display: v.string(), slug: v.string(), order: v.number() });

/** An item of `blockers`, `warnings`, `manual` and `unapproved` (render-results.ts gateRef). */
const GateRef = v.strictObject({
  id: v.pipe(v.string(), v.description('The id `sluice next --approve` takes.')),
  gate: v.string(),
  check: v.pipe(v.string(), v.description('The artifact or check of the result.')),
  severity: ResultSeveritySchema,
  message: v.string(),
});

const Checksum = v.nullable(v.string());

const runFields = {
  summary: GateSummarySchema,
  results: v.array(GateResultSchema),
  blockers: v.pipe(v.array(GateRef), v.description('Failed MUST results: the reasons for exit 1.')),
  warnings: v.pipe(v.array(GateRef), v.description('Failed SHOULD/MAY results.')),
  manual: v.pipe(v.array(GateRef), v.description('Results a person has to judge (passed: null).')),
};

export const GateOutput = commandOutput({
  phase: PhaseRef,
  current: v.pipe(v.boolean(), v.description('Whether the phase checked is the current one.')),
  blocked: v.boolean(),
  ...runFields,
});

export const NextOutput = commandOutput({
  status: v.picklist(['complete', 'blocked', 'review-required', 'dry-run', 'advanced', 'signed-off']),
  phase: PhaseRef,
  next: v.optional(PhaseRef),
  ...Object.fromEntries(Object.entries(runFields).map(([k, s]) => [k, v.optional(s)])),
  unapproved: v.array(GateRef),
  approvals: v.array(ApprovalSchema),
  entry: v.optional(HistoryEntrySchema),
  artifactDir: v.optional(v.string()),
});

export const InitOutput = commandOutput({
  root: v.string(),
  profileId: v.string(),
  pack: v.strictObject({
    dir: v.string(),
    source: v.picklist(['builtin', 'folder', 'package', 'config', 'project']),
    spec: v.string(),
    fallbackDir: v.optional(v.string()),
  }),
  frozen: v.array(v.string()),
  artifactDirs: v.array(v.string()),
  written: v.array(v.string()),
  backup: v.optional(v.string()),
  state: SdlcStateSchema,
});

/** `skip` and `reenter`. */
export const MoveOutput = commandOutput({
  kind: v.picklist(['skip', 'reenter']),
  from: PhaseRef,
  to: PhaseRef,
  entry: HistoryEntrySchema,
  artifactDir: v.string(),
});

export const RefreezeOutput = commandOutput({
  files: v.array(v.strictObject({ file: v.string(), previous: Checksum, checksum: Checksum })),
  entry: HistoryEntrySchema,
});

/** `waivers accept`: the waivers as history records them. */
export const WaiversAcceptOutput = commandOutput({
  phase: v.string(),
  accepted: v.array(AcceptedWaiverSchema),
  alreadyAccepted: v.array(AcceptedWaiverSchema),
  entry: v.nullable(HistoryEntrySchema),
});
