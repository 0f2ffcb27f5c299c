import type { Fingerprint, Reroute, WorkflowState } from '../state/workflow-state-schema.ts';
import { completionStatus } from '../state/stage-completion.ts';
import { CODE_SENSITIVE_STAGES, firstIncompleteStage, STAGE_SKILLS, STAGES, type Stage, type StageResult } from '../transition-table.ts';

/** What recovery established for one stage from its authoritative evidence. */
export interface StageFinding {
  stage: Stage;
  valid: boolean;
  stageResult?: StageResult | null;
  evidence?: string | null;
}

/**
 * Rebuilds a state from evidence: the completed stages are the longest valid run in lifecycle order
 * (the latest safe predecessor); the requirement resumes at the first stage after it. Counters, blocker
 * and orchestrator carry over from the previous state, which is never trusted for completion by itself.
 * Stages that leave completed_stages are recorded as a `recovery` reroute.
 */
export function reconstructState(
  previous: WorkflowState,
  findings: readonly StageFinding[],
  ctx: { now: string; fingerprint: Fingerprint | null; note: string },
): WorkflowState {
  const valid = new Set<Stage>();
  for (const stage of STAGES) {
    const f = findings.find((x) => x.stage === stage);
    if (!f?.valid) break;
    valid.add(stage);
  }
  const kept = previous.completed_stages.filter((s) => valid.has(s));
  const added = STAGES.filter((s) => valid.has(s) && !kept.includes(s));
  const removed = previous.completed_stages.filter((s) => !valid.has(s));
  if (removed.length === 0 && added.length === 0) return previous;
  const completed = [...kept, ...added];
  const last = STAGES.filter((s) => valid.has(s)).at(-1);
  const results = { ...previous.results };
  for (const s of removed) delete results[s];
  for (const s of added) {
    const f = findings.find((x) => x.stage === s)!;
    results[s] = { status: completionStatus(s), stage_result: f.stageResult ?? null, evidence: f.evidence ?? null, fingerprint: ctx.fingerprint, at: ctx.now };
  }
  const next = last === 'commit' ? null : firstIncompleteStage(completed);
  const reroutes: Reroute[] =
    removed.length === 0
      ? previous.reroutes
      : [
          ...previous.reroutes,
          {
            kind: 'recovery',
            trigger: previous.status,
            repair_scope: previous.repair_scope,
            repair_round: previous.repair_round,
            removed,
            route: [...removed],
            note: ctx.note,
            at: ctx.now,
          },
        ];
  return {
    ...previous,
    stage: last ?? null,
    status: last ? completionStatus(last) : null,
    stage_result: findings.find((f) => f.stage === last)?.stageResult ?? null,
    completed_stages: completed,
    next_stage: next,
    resume_from: next === null ? null : STAGE_SKILLS[next],
    results,
    reroutes,
    updated_at: ctx.now,
  };
}

/** Findings for a state whose code-sensitive results are stale: only plan and implement stand. */
export function staleFindings(state: WorkflowState): StageFinding[] {
  return STAGES.map((stage) => ({
    stage,
    valid: state.completed_stages.includes(stage) && !CODE_SENSITIVE_STAGES.includes(stage),
    stageResult: state.results[stage]?.stage_result ?? null,
    evidence: state.results[stage]?.evidence ?? null,
  }));
}
