import * as v from 'valibot';

/**
 * `.sdlc/artifacts/build/session-handoff.json` (`session-handoff-v1`): what one Build-loop session
 * leaves for the next. Written by agents and hooks, so objects are loose (unknown keys survive) and
 * optional fields stay optional; the fields the summary depends on are checked strictly.
 */
const Timestamp = v.pipe(v.string(), v.isoTimestamp('must be an ISO 8601 timestamp like 2026-03-26T15:00:00Z'));
const NullableTimestamp = v.nullable(Timestamp);
const SectionId = v.pipe(v.string(), v.nonEmpty('must not be empty'));

export const SECTION_STATUSES = ['pending', 'not_started', 'in_progress', 'complete', 'blocked'] as const;

export const HandoffSectionSchema = v.looseObject({
  id: SectionId,
  name: v.string(),
  status: v.picklist(SECTION_STATUSES, `must be one of ${SECTION_STATUSES.join(', ')}`),
  agent: v.optional(v.nullable(v.string())),
  started_at: v.optional(NullableTimestamp),
  completed_at: v.optional(NullableTimestamp),
  evaluator_result: v.optional(v.nullable(v.string())),
  notes: v.optional(v.nullable(v.string())),
});

export const NextActionSchema = v.looseObject({
  action: v.pipe(v.string(), v.nonEmpty('must not be empty')),
  section: v.optional(v.nullable(v.string())),
  priority: v.optional(v.nullable(v.string())),
  context: v.optional(v.nullable(v.string())),
});

export const BlockerSchema = v.looseObject({
  description: v.pipe(v.string(), v.nonEmpty('must not be empty')),
  section: v.optional(v.nullable(v.string())),
  resolved: v.boolean(),
});

export const SessionHandoffSchema = v.looseObject({
  $schema: v.literal('session-handoff-v1', 'must be "session-handoff-v1"'),
  phase: v.literal('build', 'must be "build" (the handoff belongs to the Build loop)'),
  last_updated: v.optional(NullableTimestamp),
  session_number: v.pipe(v.number(), v.integer('must be a whole number'), v.minValue(0, 'must not be negative')),
  overall_status: v.picklist(['in_progress', 'blocked', 'complete'], 'must be one of in_progress, blocked, complete'),
  current_sprint: v.optional(v.nullable(v.pipe(v.number(), v.integer('must be a whole number')))),
  sections: v.array(HandoffSectionSchema),
  completed_this_session: v.optional(v.array(v.string())),
  in_progress: v.optional(v.array(v.string())),
  blocked: v.optional(v.array(v.string())),
  next_actions: v.optional(v.array(NextActionSchema)),
  blockers: v.optional(v.array(BlockerSchema)),
  decisions_this_session: v.optional(v.array(v.string())),
  deviations_this_session: v.optional(v.array(v.string())),
  context_for_next_session: v.optional(v.nullable(v.string())),
});

export type SessionHandoff = v.InferOutput<typeof SessionHandoffSchema>;

export const SESSION_HANDOFF_PATH = '.sdlc/artifacts/build/session-handoff.json';
