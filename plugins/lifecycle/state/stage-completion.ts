import { TRANSITIONS, type Stage, type StageResult, type Status } from '../transition-table.ts';

/** The status a stage's successful completion sets (the seed's chain). */
export function completionStatus(stage: Stage): Status {
  return TRANSITIONS.find((r) => r.stage === stage && r.effect === 'complete')!.status;
}

/** The result a completed stage stands for: PASS, TEST_PASS, the retrospective's own; null where a stage has none. */
export function completionResult(stage: Stage, known: StageResult | null): StageResult | null {
  if (stage === 'code-review') return 'PASS';
  if (stage === 'test') return 'TEST_PASS';
  if (stage === 'retrospective') return known === 'DOCS_UPDATED' || known === 'NO_DOC_CHANGE' ? known : null;
  return null;
}

/** Results that complete each gate; anything else recorded for it (NEEDS_FIXES, a failing test) never leads to a commit. */
export const COMPLETING_RESULTS: Partial<Record<Stage, readonly StageResult[]>> = {
  'code-review': ['PASS'],
  test: ['TEST_PASS'],
  retrospective: ['DOCS_UPDATED', 'NO_DOC_CHANGE'],
};
