import * as v from 'valibot';

/**
 * `iteration-state.json`: the single source of truth of a tuning run (`sluice schema iteration-state`).
 * Written atomically after every step, so a killed run resumes from the last finished step.
 * Paths of skills are relative to the project root; every other path is relative to the run folder.
 */
const Int = (min: number, max = Number.MAX_SAFE_INTEGER) => v.pipe(v.number(), v.integer(), v.minValue(min), v.maxValue(max));
const Score = v.pipe(v.number(), v.minValue(0), v.maxValue(100));
const Text = v.pipe(v.string(), v.minLength(1));
const Timestamp = v.pipe(v.string(), v.isoTimestamp());

export const SKILL_ID = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

const SkillRef = v.object({
  id: v.pipe(
    v.string(),
    v.regex(SKILL_ID, 'a skill id is a folder name: letters, digits, dot, dash, underscore'),
    v.description('folder name; names the skill in prompts, snapshots and backups'),
  ),
  name: v.pipe(Text, v.description('`name` from the SKILL.md frontmatter')),
  path: v.pipe(Text, v.description('the skill folder, relative to the project root')),
});

export const DimensionsSchema = v.object({
  clarity: Score,
  completeness: Score,
  correctness: Score,
  effectiveness: Score,
  efficiency: Score,
});

const SuggestionSchema = v.object({
  priority: v.picklist(['high', 'medium', 'low']),
  text: Text,
  target: v.optional(v.string()),
});

const OutsideChange = v.object({
  role: Text,
  path: v.pipe(Text, v.description('project-relative inside the project, else absolute')),
  change: v.picklist(['added', 'modified', 'removed']),
  restored: v.pipe(v.boolean(), v.description('put back right after the call (an added path removed)')),
  copy: v.optional(v.pipe(v.string(), v.description('the copy of what was there before, kept for --restore (run-relative)'))),
  note: v.optional(v.string()),
});

const OutsideChanges = v.optional(
  v.pipe(v.array(OutsideChange), v.description('what the call changed outside the folder it may write; the step was rolled back')),
);

const SkillExecution = v.object({
  id: Text,
  status: v.picklist(['ok', 'failed']),
  attempts: Int(0),
  files: v.pipe(Int(0), v.description('files the executor left in its artifacts folder')),
  transcript: v.string(),
  error: v.optional(v.string()),
});

const Execution = v.object({
  status: v.picklist(['running', 'ok', 'failed']),
  skills: v.array(SkillExecution),
  error: v.optional(v.string()),
  outside_changes: OutsideChanges,
});

const Evaluation = v.object({
  status: v.picklist(['ok', 'failed']),
  score: v.pipe(
    v.nullable(Score),
    v.description('composite recomputed from the dimensions (or a clearly labelled total, see source); null when no score was found'),
  ),
  source: v.pipe(
    v.nullable(v.picklist(['json', 'heuristic-dimensions', 'heuristic-overall'])),
    v.description('where the score came from: the evaluator JSON, or the heuristic extraction from its text'),
  ),
  dimensions: v.nullable(DimensionsSchema),
  skill_scores: v.pipe(v.record(v.string(), Score), v.description('chain mode: composite per skill id')),
  strengths: v.array(v.string()),
  weaknesses: v.array(v.string()),
  suggestions: v.array(SuggestionSchema),
  attempts: Int(0),
  eval_file: v.string(),
  raw_file: v.optional(v.pipe(v.string(), v.description('saved evaluator output when it was not valid JSON'))),
  error: v.optional(v.string()),
});

const Improvement = v.object({
  status: v.picklist(['applied', 'unchanged', 'rolled_back', 'skipped']),
  targets: v.array(v.string()),
  changed_files: v.array(v.string()),
  changes_file: v.string(),
  reason: v.optional(v.string()),
  applied: v.optional(v.pipe(v.array(v.string()), v.description("the changes the improver says it applied (maestro's changes_applied)"))),
  outside_changes: OutsideChanges,
});

const IterationPhase = v.picklist(['started', 'snapshotted', 'executed', 'evaluated', 'done', 'failed']);

const IterationSchema = v.object({
  round: Int(1),
  phase: v.pipe(IterationPhase, v.description('started → snapshotted → executed → evaluated → done; failed when no score came out')),
  started_at: Timestamp,
  finished_at: v.optional(Timestamp),
  trend: v.nullable(v.picklist(['first', 'rising', 'flat', 'falling'])),
  note: v.optional(v.string()),
  execution: v.nullable(Execution),
  evaluation: v.nullable(Evaluation),
  improvement: v.nullable(Improvement),
});

export const TERMINATION_REASONS = ['quality_threshold_met', 'max_iterations_reached', 'convergence_detected', 'error_limit_reached'] as const;

export const IterationStateSchema = v.looseObject({
  format: v.literal('sluice-skill-tune/1'),
  run_id: Text,
  created_at: Timestamp,
  updated_at: Timestamp,
  status: v.pipe(v.picklist(['setup', 'running', 'terminated']), v.description('setup until the backup is complete, then running, then terminated')),
  scenario: Text,
  execution_mode: v.picklist(['single', 'chain']),
  chain_on_failure: v.optional(
    v.pipe(
      v.picklist(['continue', 'stop']),
      v.description(
        'chain mode: a failed skill is passed over, the next one getting the last output there is (maestro), or ends the iteration (--strict-chain; runs made before this field existed)',
      ),
    ),
  ),
  preset: v.picklist(['quick', 'standard', 'thorough', 'custom']),
  max_iterations: Int(1, 100),
  quality_threshold: Score,
  max_errors: Int(1, 100),
  backends: v.object({ executor: Text, evaluator: Text, improver: Text }),
  self_evaluation_acknowledged: v.pipe(
    v.boolean(),
    v.description("the evaluator runs on the executor's backend and the user accepted it (--allow-self-evaluation)"),
  ),
  adopted_from: v.optional(v.pipe(Text, v.description('the maestro skill-iter-tune run folder this run continues (project-relative)'))),
  delegate_extra: v.optional(
    v.pipe(v.record(v.string(), v.unknown()), v.description("passed as request.extra to every delegate run (e.g. the script backend's file)")),
  ),
  skills: v.pipe(v.array(SkillRef), v.minLength(1)),
  chain_order: v.pipe(v.array(Text), v.description('skill ids in execution order (chain mode), or in the order given')),
  current_iteration: Int(0),
  latest_score: v.pipe(v.nullable(Score), v.description('latest real score; null until an evaluator gives one')),
  best: v.nullable(v.object({ iteration: Int(1), score: Score })),
  score_trend: v.pipe(v.array(Score), v.description('real scores in order (failed iterations add none); the convergence window reads the last three')),
  error_count: v.pipe(Int(0), v.description('consecutive iterations without a score; the run stops at max_errors')),
  iterations: v.array(IterationSchema),
  termination: v.nullable(
    v.object({
      reason: v.picklist(TERMINATION_REASONS),
      iteration: Int(0),
      message: Text,
      falling: v.pipe(v.boolean(), v.description('the last real score was below the one before it when the run stopped')),
      at: Timestamp,
    }),
  ),
});

export type IterationState = v.InferOutput<typeof IterationStateSchema>;
export type IterationRecord = v.InferOutput<typeof IterationSchema>;
export type IterationPhaseName = v.InferOutput<typeof IterationPhase>;
export type ExecutionRecord = v.InferOutput<typeof Execution>;
export type SkillExecutionRecord = v.InferOutput<typeof SkillExecution>;
export type EvaluationRecord = v.InferOutput<typeof Evaluation>;
export type ImprovementRecord = v.InferOutput<typeof Improvement>;
export type OutsideChangeRecord = v.InferOutput<typeof OutsideChange>;
export type SkillRefRecord = v.InferOutput<typeof SkillRef>;

/** Rules every rewrite keeps: the run keeps its identity, history only grows, a termination stays. */
export function iterationStateInvariant(before: IterationState, after: IterationState): string | undefined {
  if (after.run_id !== before.run_id) return 'run_id cannot change';
  if (after.iterations.length < before.iterations.length) return 'iterations cannot be removed';
  if (after.score_trend.length < before.score_trend.length || before.score_trend.some((s, i) => after.score_trend[i] !== s))
    return 'score_trend is append-only';
  if (before.termination && !after.termination) return 'a terminated run cannot be reopened';
  if (JSON.stringify(after.skills) !== JSON.stringify(before.skills)) return 'the skills of a run cannot change';
  return undefined;
}
