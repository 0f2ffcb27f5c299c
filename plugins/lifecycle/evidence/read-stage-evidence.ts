import type { Host } from '../../../core/index.ts';
import { readImplementedPlan, readPlanReady } from '../readers/plan-tasks-reader.ts';
import type { ArtifactRef } from '../readers/read-artifact.ts';
import { readRetrospective } from '../readers/retrospective-reader.ts';
import { readReviewVerdict } from '../readers/review-report-reader.ts';
import { readTestEvidence } from '../readers/test-verdict-reader.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import type { Stage } from '../transition-table.ts';
import type { LifecycleEvent } from '../apply-event.ts';

export type EvidenceStage = Exclude<Stage, 'commit'>;

/** A stage's event plus every file it was read from (path, content hash, recognised format). */
export type StageEvidence = (Extract<LifecycleEvent, { kind: 'verdict' }> | Extract<LifecycleEvent, { kind: 'blocked' }>) & {
  artifacts: ArtifactRef[];
  format: string;
};

/**
 * A stage's verdict, read only from its authoritative artifact. Nothing an agent says in its reply
 * counts; what it wrote to the artifact, validated by the artifact's schema, does. A blocked result
 * the artifact declares (PLAN_BLOCKED, RETRO_BLOCKED) is a `blocked` event. `state`, when given,
 * supplies the verdicts a retrospective must repeat. (The commit stage's evidence is the commit in
 * git; see commit-stage.ts.)
 */
export async function readStageEvidence(host: Host, root: string, artifactDir: string, stage: EvidenceStage, state?: WorkflowState): Promise<StageEvidence> {
  switch (stage) {
    case 'plan': {
      const plan = await readPlanReady(host, root, artifactDir);
      const common = { stage, evidence: plan.file, format: plan.format, artifacts: plan.artifacts };
      return plan.blocked ? { kind: 'blocked', reason: `PLAN_BLOCKED: ${plan.blocked}`, ...common } : { kind: 'verdict', verdict: 'PLAN_READY', ...common };
    }
    case 'implement': {
      const plan = await readImplementedPlan(host, root, artifactDir);
      return {
        kind: 'verdict',
        stage,
        verdict: 'IMPLEMENTED',
        evidence: plan.file,
        format: 'sluice',
        artifacts: [{ file: plan.file, sha256: plan.sha256, format: 'sluice' }],
      };
    }
    case 'code-review': {
      const review = await readReviewVerdict(host, root, artifactDir);
      return { kind: 'verdict', stage, verdict: review.verdict, evidence: review.file, format: review.format, artifacts: review.artifacts };
    }
    case 'test': {
      const t = await readTestEvidence(host, root, artifactDir);
      return {
        kind: 'verdict',
        stage,
        verdict: t.verdict,
        repairScope: t.repairScope,
        failureCount: t.failureCount,
        evidence: t.file,
        format: t.format,
        artifacts: t.artifacts,
      };
    }
    case 'retrospective': {
      const recorded = { review: state?.results['code-review']?.stage_result ?? null, test: state?.results.test?.stage_result ?? null };
      const r = await readRetrospective(host, root, artifactDir, recorded);
      const common = { stage, evidence: r.file, format: r.format, artifacts: r.artifacts };
      if (r.blocked) return { kind: 'blocked', reason: `RETRO_BLOCKED: ${r.reason}`, ...common };
      return { kind: 'verdict', verdict: r.result!, ...common };
    }
  }
}
