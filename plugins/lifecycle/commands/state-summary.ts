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

export function statusColour(style: Style, status: WorkflowState['status']): string {
  const text = status ?? 'NEW';
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
  return `${slug.padEnd(width)} ${statusColour(style, s.status).padEnd(20)} ${style.dim(next)}${rounds ? style.dim(` (${rounds})`) : ''}`;
}
