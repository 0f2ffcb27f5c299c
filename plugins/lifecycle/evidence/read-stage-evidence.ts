import type { Host } from '../../../core/index.ts';
import { readImplementedPlan, readPlanReady } from '../readers/plan-tasks-reader.ts';
import { readRetrospectiveResult } from '../readers/retrospective-reader.ts';
import { readReviewVerdict } from '../readers/review-report-reader.ts';
import { readTestVerdict } from '../readers/test-verdict-reader.ts';
import type { LifecycleEvent, Stage } from '../transition-table.ts';

export type EvidenceStage = Exclude<Stage, 'commit'>;

/** A verdict plus every further file it was read from (reports, evidence packages), all hashed when recorded. */
export type StageEvidence = Extract<LifecycleEvent, { kind: 'verdict' }> & { evidenceFiles?: string[] };

/**
 * A stage's verdict, read only from its authoritative artifact. Nothing an agent says in its reply
 * counts; what it wrote to the artifact, validated by the artifact's schema, does. (The commit stage's
 * evidence is the commit in git; see commit-stage.ts.)
 */
export async function readStageEvidence(host: Host, root: string, artifactDir: string, stage: EvidenceStage): Promise<StageEvidence> {
  switch (stage) {
    case 'plan': {
      const plan = await readPlanReady(host, root, artifactDir);
      return { kind: 'verdict', stage, verdict: 'PLAN_READY', evidence: plan.file };
    }
    case 'implement': {
      const plan = await readImplementedPlan(host, root, artifactDir);
      return { kind: 'verdict', stage, verdict: 'IMPLEMENTED', evidence: plan.file };
    }
    case 'code-review': {
      const review = await readReviewVerdict(host, root, artifactDir);
      return { kind: 'verdict', stage, verdict: review.verdict, evidence: review.file };
    }
    case 'test': {
      const t = await readTestVerdict(host, root, artifactDir);
      return { kind: 'verdict', stage, verdict: t.verdict, repairScope: t.repair_scope ?? null, failureCount: t.failures?.length ?? 0, evidence: t.file };
    }
    case 'retrospective': {
      const r = await readRetrospectiveResult(host, root, artifactDir);
      // The documents it updated are its evidence too: hashed, so a later edit of them shows.
      return { kind: 'verdict', stage, verdict: r.result, evidence: r.file, evidenceFiles: r.docs_updated ?? [] };
    }
  }
}
