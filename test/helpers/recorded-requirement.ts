import type { LifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { recordStage } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { evidence, makeLifecycle, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';

export type RecordedStage = 'plan' | 'implement' | 'code-review' | 'test' | 'retrospective';
/** The evidence files a stage leaves, and the stage that is then recorded. */
export type EvidenceStep = readonly [files: Record<string, string>, stage: RecordedStage];

/** Writes each step's evidence and records its stage, as the orchestrator `caller` (or a person: null) would. */
export async function recordSteps(root: string, lc: LifecycleContext, slug: string, steps: readonly EvidenceStep[], caller: string | null = null) {
  for (const [files, stage] of steps) {
    await writeFiles(root, files);
    await recordStage(lc, slug, stage, caller);
  }
}

/** The evidence of a clean run up to the commit: plan, implementation, review PASS, test PASS, retrospective. */
export const throughRetrospective = (slug: string): EvidenceStep[] => [
  [evidence.plan(slug), 'plan'],
  [evidence.implement(slug), 'implement'],
  [evidence.review(slug, 'PASS'), 'code-review'],
  [evidence.test(slug, 'TEST_PASS'), 'test'],
  [evidence.retrospective(slug), 'retrospective'],
];

/**
 * A git repository holding `files`, with requirement `slug` started (owned by `orchestrator`, if
 * given) and recorded through `steps` by that orchestrator: the opening of a lifecycle test.
 */
export async function recordedRequirement(
  slug: string,
  steps: readonly EvidenceStep[] = [],
  o: { files?: Record<string, string>; orchestrator?: string } = {},
): Promise<{ root: string; lc: LifecycleContext }> {
  const root = await makeRepo(o.files);
  const { lc } = await makeLifecycle(root);
  await startRequirement(lc, slug, { orchestrator: o.orchestrator });
  await recordSteps(root, lc, slug, steps, o.orchestrator ?? null);
  return { root, lc };
}
