import { STAGE_SKILLS } from '../transition-table.ts';
import type { WorkflowState } from './workflow-state-schema.ts';

/** The state of a requirement whose lifecycle has just started: nothing completed, plan next. */
export function newWorkflowState(artifactDir: string, orchestrator: string | null, now: string): WorkflowState {
  return {
    schema_version: 1,
    artifact_dir: artifactDir,
    orchestrator,
    stage: null,
    status: null,
    stage_result: null,
    completed_stages: [],
    repair_scope: null,
    repair_round: 0,
    next_stage: 'plan',
    resume_from: STAGE_SKILLS.plan,
    review_round: 0,
    env_recovery_round: 0,
    blocker: null,
    results: {},
    reroutes: [],
    commit: null,
    created_at: now,
    updated_at: now,
  };
}
