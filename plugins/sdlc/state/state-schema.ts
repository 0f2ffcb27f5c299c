import * as v from 'valibot';
import { GateResultSchema } from './gate-result-schema.ts';
import { FrozenFilesSchema, HistoryEntrySchema } from './history-schema.ts';
import { PhaseIdSchema } from './phase-id.ts';
import { TimestampSchema as Timestamp } from './timestamp.ts';

export const PROJECT_TYPES = ['service', 'app', 'library', 'skill', 'cli'] as const;
export const ProjectTypeSchema = v.pipe(v.picklist(PROJECT_TYPES), v.description('Project type; selects which `required_for` artifacts apply.'));
export type ProjectType = (typeof PROJECT_TYPES)[number];

export const PhaseStatusSchema = v.pipe(
  v.picklist(['pending', 'active', 'completed', 'skipped']),
  v.description('pending: not reached; active: in progress (exactly one); completed: gates passed and confirmed; skipped: skipped with justification.'),
);
export type PhaseStatus = v.InferOutput<typeof PhaseStatusSchema>;

/** A value recorded by G5-consistency when a phase is left, compared by later gate runs. */
export const LockedMetricSchema = v.pipe(
  v.looseObject({
    value: v.pipe(
      v.union([v.string(), v.number(), v.boolean(), v.array(v.union([v.string(), v.number()]))]),
      v.description('The value at the time of locking.'),
    ),
    source: v.pipe(v.string(), v.description('Where it was read: `profile.yaml quality.coverage_minimum`, `00-discovery/constraints.md`.')),
  }),
  v.description('One locked metric.'),
);

/** A phase's latest gate run as `sluice gate` writes it: the seed's summary counts and the results. */
export const GateRunRecordSchema = v.pipe(
  v.looseObject({
    passed: v.optional(v.pipe(v.number(), v.description('Results with passed: true (INFO rows not counted).'))),
    failed: v.optional(v.pipe(v.number(), v.description('Results with passed: false.'))),
    manual: v.optional(v.pipe(v.number(), v.description('Results with passed: null.'))),
    results: v.pipe(v.array(GateResultSchema), v.description('Every result of the run, INFO rows included.')),
  }),
  v.description('The latest gate run of a phase: summary counts and the full results.'),
);
export type GateRunRecord = v.InferOutput<typeof GateRunRecordSchema>;

/** Tracking data of one phase (`phases.<id>`). */
export const PhaseRecordSchema = v.pipe(
  v.looseObject({
    name: v.pipe(v.string(), v.description('Phase name from the registry.')),
    status: PhaseStatusSchema,
    entered_at: v.pipe(v.nullable(Timestamp), v.description('When the phase last became active; null while pending.')),
    completed_at: v.pipe(v.nullable(Timestamp), v.description('When the phase was completed or skipped; null while pending or active.')),
    gate_results: v.optional(
      v.pipe(
        v.union([GateRunRecordSchema, v.array(GateResultSchema), v.record(v.string(), v.unknown())]),
        v.description(
          'Results of the most recent gate run: summary counts with a `results` list (sluice writes this), a bare list (older sluice), or a map ({} before the first run, summary counts once completed).',
        ),
      ),
    ),
    artifacts: v.optional(v.pipe(v.array(v.string()), v.description('Artifact file names produced in this phase.'))),
    artifact_checksums: v.optional(
      v.pipe(v.record(v.string(), v.unknown()), v.description('Checksums by artifact name (written by other tools; kept as is).')),
    ),
    locked_metrics: v.optional(v.pipe(v.record(v.string(), LockedMetricSchema), v.description('Metrics locked by G5-consistency when this phase was left.'))),
  }),
  v.description('Progress of one phase.'),
);
export type PhaseRecord = v.InferOutput<typeof PhaseRecordSchema>;

/**
 * `.sdlc/state.yaml`: the single mutable file of an SDLC project. Keys other tools add are kept
 * on rewrite (loose objects). sluice writes phase ids as strings, like the reference template,
 * and reads bare integers as the same phase.
 */
export const SdlcStateSchema = v.pipe(
  v.looseObject({
    version: v.pipe(v.string(), v.description('State format version, "1.0".')),
    profile_id: v.pipe(v.string(), v.description('Profile frozen at init (company.profile_id).')),
    project_name: v.pipe(v.string(), v.description('Project name (--name or the folder name).')),
    created_at: v.pipe(Timestamp, v.description('When the project was initialised.')),
    project_type: v.optional(v.pipe(v.nullable(ProjectTypeSchema), v.description('Set during Phase 0 (or by `sluice init --type`); null until known.'))),
    current_phase: v.pipe(PhaseIdSchema, v.description('The active phase id.')),
    phase_name: v.pipe(v.string(), v.description('Name of the current phase (mirrors the registry).')),
    phases: v.pipe(v.record(v.string(), PhaseRecordSchema), v.description('Tracking data by phase id.')),
    history: v.pipe(v.array(HistoryEntrySchema), v.description('Append-only transition log.')),
    frozen_files: v.optional(FrozenFilesSchema),
  }),
  v.description('.sdlc/state.yaml: phase progress, gate results and transition history of one project.'),
);

export type SdlcState = v.InferOutput<typeof SdlcStateSchema>;
