import type { Style } from '../../../core/index.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';

/**
 * The fields of a workflow state people and scripts look at first, named in the --json convention
 * (camelCase); `blocker` is the stored record, shown as the state file has it.
 */
export function summarizeState(slug: string, s: WorkflowState) {
  return {
    slug,
    artifactDir: s.artifact_dir,
    orchestrator: s.orchestrator,
    status: s.status,
    stage: s.stage,
    stageResult: s.stage_result,
    completedStages: s.completed_stages,
    nextStage: s.next_stage,
    resumeFrom: s.resume_from,
    repairScope: s.repair_scope,
    repairRound: s.repair_round,
    reviewRound: s.review_round,
    envRecoveryRound: s.env_recovery_round,
    blocker: s.blocker,
    /** Each recorded stage's artifact and the format it was recognised as. */
    artifacts: Object.fromEntries(Object.entries(s.results).map(([stage, r]) => [stage, { file: r.evidence, format: r.format ?? null }])),
    commit: s.commit?.sha ?? null,
  };
}

/**
 * A stage PrizmKit (v3/v4) recorded as `in_progress` or `pending` that is still the next one: it is shown
 * as that, not as a new requirement, until sluice records it.
 */
export function foreignProgress(s: WorkflowState): string | undefined {
  const original = (s as { migrated_from?: { original?: { status?: unknown; stage?: unknown } } }).migrated_from?.original;
  if (original?.status !== 'in_progress' && original?.status !== 'pending') return undefined;
  const stage = original.stage === 'committer' ? 'commit' : original.stage;
  return stage === s.next_stage ? `${original.status} at ${String(original.stage)}` : undefined;
}

export function statusColour(style: Style, status: WorkflowState['status'], progress?: string): string {
  const text = status ?? (progress ? progress.toUpperCase().replace(/ AT .*/, '') : 'NEW');
  if (status === 'COMMITTED') return style.green(text);
  if (status === 'WORKFLOW_BLOCKED' || status === 'TEST_BLOCKED') return style.red(text);
  if (status === 'REVIEW_NEEDS_FIXES' || status === 'TEST_FAIL' || status === 'COMMIT_PENDING') return style.yellow(text);
  return style.cyan(text);
}

/** One line per requirement: slug, status, what runs next, and the counters when they matter. */
export function stateLine(style: Style, slug: string, s: WorkflowState, width = 24): string {
  const rounds = [s.repair_round ? `repair ${s.repair_round}/3` : '', s.review_round > 1 ? `review ${s.review_round}` : ''].filter(Boolean).join(', ');
  const next =
    s.status === 'WORKFLOW_BLOCKED'
      ? `blocked by ${s.blocker?.rule}: ${s.blocker?.reason}`
      : s.next_stage
        ? `next ${s.next_stage}`
        : `commit ${s.commit?.sha.slice(0, 12) ?? ''}`;
  const progress = foreignProgress(s);
  const foreign = progress ? style.dim(` (PrizmKit: ${progress})`) : '';
  return `${slug.padEnd(width)} ${statusColour(style, s.status, progress).padEnd(20)} ${style.dim(next)}${rounds ? style.dim(` (${rounds})`) : ''}${foreign}`;
}
