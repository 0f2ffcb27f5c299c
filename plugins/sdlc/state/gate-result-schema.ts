import * as v from 'valibot';

export const SeveritySchema = v.pipe(
  v.picklist(['MUST', 'SHOULD', 'MAY']),
  v.description('RFC 2119 severity: MUST blocks a transition, SHOULD warns, MAY informs.'),
);
export const ResultSeveritySchema = v.pipe(
  v.picklist(['MUST', 'SHOULD', 'MAY', 'INFO']),
  v.description('Severity of one result; INFO rows are reports (e.g. the spec backlog) and never block or need approval.'),
);

/** One line of a gate verdict, as `sluice gate` stores it in `phases.<id>.gate_results` and `sluice next` in history. */
export const GateResultSchema = v.pipe(
  v.looseObject({
    gate: v.pipe(v.string(), v.description('Gate identifier, e.g. G1-integrity, G4-compliance, or a command gate id.')),
    id: v.optional(v.pipe(v.string(), v.description('Stable id of this result; the id `sluice next --approve` takes for a manual result.'))),
    artifact: v.optional(
      v.pipe(v.string(), v.description('Artifact checked, relative to the phase artifact folder (or the repo root for `root: repo` artifacts).')),
    ),
    file: v.optional(v.pipe(v.string(), v.description('The file the result is about, relative to the project root (CI annotations point there).'))),
    line: v.optional(v.pipe(v.number(), v.integer(), v.minValue(1), v.description('The line of `file` the result is about (the first problem found).'))),
    check: v.optional(v.pipe(v.string(), v.description('What was checked when it is not an artifact (a prose exit condition, a metric, a command).'))),
    passed: v.pipe(v.nullable(v.boolean()), v.description('true passed, false failed, null = a person must judge it (manual review).')),
    message: v.pipe(v.string(), v.description('Human-readable explanation.')),
    severity: ResultSeveritySchema,
    data: v.optional(
      v.pipe(
        v.unknown(),
        v.description(
          "What the gate hands its consumers besides the verdict, in the shape its plugin declares (G5's `metrics to lock` row: `{ metrics }`, the values `sluice next` locks). Shown by `gate --json`, not stored.",
        ),
      ),
    ),
  }),
  v.description('One gate result: {gate, artifact|check, passed, message, severity}.'),
);

export type StoredGateResult = v.InferOutput<typeof GateResultSchema>;
