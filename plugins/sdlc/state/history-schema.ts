import * as v from 'valibot';
import { TransitionSignatureSchema } from '../signing/transition-signature.ts';
import { GateResultSchema } from './gate-result-schema.ts';
import { PhaseIdSchema } from './phase-id.ts';
import { TimestampSchema as Timestamp } from './timestamp.ts';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

/** The seed's summary counts of one gate run. INFO rows are not counted. */
export const GateSummarySchema = v.pipe(
  v.looseObject({
    passed: v.pipe(Count, v.description('Results with passed: true.')),
    failed: v.pipe(Count, v.description('Results with passed: false, any severity (SHOULD/MAY failures are warnings but still counted).')),
    manual: v.pipe(Count, v.description('Results with passed: null: manual judgements.')),
  }),
  v.description('Summary counts of the gate run that allowed this transition.'),
);

/** Sign-off of one manual result, given with `sluice next --approve GATE --signed-by NAME`. */
export const ApprovalSchema = v.pipe(
  v.looseObject({
    gate: v.pipe(v.string(), v.description('The id of the manual result approved (the `id` field of the result).')),
    signed_by: v.pipe(v.string(), v.minLength(1), v.description('Who approved it (--signed-by).')),
    at: Timestamp,
    via: v.optional(
      v.pipe(
        v.picklist(['approve', 'confirmed']),
        v.description('approve: named with --approve; confirmed: listed by the run that `next --confirmed` confirmed (seed §6 step 5).'),
      ),
    ),
  }),
  v.description('One manual gate approval.'),
);

/** Checksums of the frozen files by path relative to the project root (`.sdlc/profile.yaml: sha256:…`). */
export const FrozenFilesSchema = v.pipe(
  v.record(v.string(), v.nullable(v.pipe(v.string(), v.regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256:<64 hex digits>')))),
  v.description(
    'Checksums of frozen files (registry, profile, compliance) by path relative to the project root; written at init, replaced only by a recorded re-freeze (null: the file was removed on purpose and is no longer frozen).',
  ),
);

/** One G2 waiver a person accepted (`sluice waivers accept`), as the gate run found it. */
export const AcceptedWaiverSchema = v.pipe(
  v.looseObject({
    gate: v.pipe(v.string(), v.description('The gate whose row carried the waiver (G2-completeness).')),
    result: v.pipe(v.string(), v.description('The id of that row, e.g. G2:constraints.md.')),
    file: v.pipe(v.string(), v.description('The waived file, as the gate names it.')),
    line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('The line of the WAIVED entry when it was accepted.'))),
    who: v.pipe(v.string(), v.description('The name the WAIVED line gives (free text in the file).')),
    why: v.pipe(v.string(), v.description('The reason the WAIVED line gives.')),
    markers: v.pipe(v.array(v.string()), v.description('The placeholder markers the waiver let through when it was accepted.')),
    digest: v.pipe(
      v.string(),
      v.regex(/^sha256:[0-9a-f]{64}$/, 'expected sha256:<64 hex digits>'),
      v.description('Hash of gate, file, who, why and markers: a changed waiver (another reason, more markers) needs a new acceptance.'),
    ),
  }),
  v.description('One accepted waiver.'),
);

/**
 * One entry of the append-only transition log. Three kinds, told apart by flags:
 * - an advance (`sluice next --confirmed`): gate_results summary, results, approvals, confirmed_by;
 * - a skip (`sluice skip`): `skipped: true` and the justification, no gate run;
 * - a re-entry (`sluice reenter`): `reentry: true`, `to` is an earlier phase, and the justification;
 * - a sign-off of the terminal phase (`sluice next --confirmed` on close): `signoff: true`, `from` = `to`;
 * - a re-freeze (`sluice refreeze`): `refreeze: true`, no move, the new checksums, who and why;
 * - a waiver acceptance (`sluice waivers accept`): `waiver_acceptance: true`, no move, the waivers, who and why.
 * Entries are never modified or removed once written.
 */
export const HistoryEntrySchema = v.pipe(
  v.looseObject({
    from: v.pipe(PhaseIdSchema, v.description('Phase left.')),
    to: v.pipe(PhaseIdSchema, v.description('Phase entered.')),
    at: v.pipe(Timestamp, v.description('When the transition happened.')),
    gate_results: v.optional(GateSummarySchema),
    justification: v.optional(v.pipe(v.string(), v.description('Human-readable reason; required for skips and re-entries.'))),
    reentry: v.optional(v.pipe(v.boolean(), v.description('true when an earlier phase was re-entered.'))),
    skipped: v.optional(v.pipe(v.boolean(), v.description('true when `from` was skipped without its gates.'))),
    results: v.optional(v.pipe(v.array(GateResultSchema), v.description('Full gate results of the run that allowed this advance (written by sluice).'))),
    approvals: v.optional(v.pipe(v.array(ApprovalSchema), v.description('Per-gate sign-offs of the manual results (written by sluice).'))),
    confirmed_by: v.optional(
      v.pipe(
        v.string(),
        v.description('Who confirmed the transition: --signed-by, else the OS user (written by sluice). Unverified unless `signature` is present.'),
      ),
    ),
    signature: v.optional(TransitionSignatureSchema),
    refreeze: v.optional(
      v.pipe(
        v.boolean(),
        v.description('true for `sluice refreeze`: a frozen file changed on purpose; `from` = `to` = the current phase, `justification` says why.'),
      ),
    ),
    frozen_files: v.optional(FrozenFilesSchema),
    signoff: v.optional(v.pipe(v.boolean(), v.description('true when the terminal phase was signed off (`from` = `to`): the project is complete.'))),
    waiver_acceptance: v.optional(
      v.pipe(v.boolean(), v.description('true for `sluice waivers accept`: a person accepted the `waivers` of phase `from` (= `to`); no move.')),
    ),
    waivers: v.optional(v.pipe(v.array(AcceptedWaiverSchema), v.description('The waivers accepted (waiver_acceptance only).'))),
  }),
  v.description('One transition in the append-only history.'),
);

export type HistoryEntry = v.InferOutput<typeof HistoryEntrySchema>;
export type GateSummary = v.InferOutput<typeof GateSummarySchema>;
export type Approval = v.InferOutput<typeof ApprovalSchema>;
export type AcceptedWaiver = v.InferOutput<typeof AcceptedWaiverSchema>;
