import * as v from 'valibot';
import { SeveritySchema } from '../state/gate-result-schema.ts';
import { PhaseIdSchema } from '../state/phase-id.ts';

const common = {
  phase: v.pipe(PhaseIdSchema, v.description('Phase whose gate run includes this check.')),
  id: v.pipe(v.string(), v.regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/), v.description('Stable id; the id `--approve` takes for manual checks.')),
  name: v.string(),
  criteria: v.optional(v.pipe(v.string(), v.description('The control it evidences, e.g. "CC6.1 — Logical access".'))),
  description: v.optional(v.string()),
  severity: SeveritySchema,
};
const ArtifactPath = v.pipe(v.string(), v.minLength(1), v.description('Artifact in the phase folder (a folder when it ends with /).'));

/** One compliance check, by `check_type`. */
export const ComplianceGateSchema = v.variant('check_type', [
  v.looseObject({ ...common, check_type: v.literal('artifact_exists'), artifact: ArtifactPath }),
  v.looseObject({
    ...common,
    check_type: v.literal('artifact_content'),
    artifact: ArtifactPath,
    required_content: v.pipe(v.array(v.pipe(v.string(), v.minLength(1))), v.minLength(1), v.description('Phrases that must all appear (case-insensitive).')),
  }),
  v.looseObject({ ...common, check_type: v.literal('manual') }),
  v.looseObject({
    ...common,
    check_type: v.literal('metric'),
    metric: v.pipe(v.picklist(['coverage']), v.description('Measured value: line coverage from the project coverage report.')),
    threshold_key: v.pipe(v.string(), v.description('Dotted profile path of the threshold, e.g. quality.coverage_minimum.')),
  }),
]);

/** `compliance/<framework>-gates.yaml`: the checks one framework adds to phase transitions. */
export const ComplianceFileSchema = v.pipe(
  v.looseObject({
    version: v.string(),
    framework: v.pipe(v.string(), v.minLength(1)),
    gates: v.array(ComplianceGateSchema),
  }),
  v.description('compliance/<framework>-gates.yaml: framework checks by phase (check_type artifact_exists | artifact_content | manual | metric).'),
);

export type ComplianceFile = v.InferOutput<typeof ComplianceFileSchema>;
export type ComplianceGate = v.InferOutput<typeof ComplianceGateSchema>;
