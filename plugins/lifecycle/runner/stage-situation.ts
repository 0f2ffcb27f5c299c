import type { WorkflowState } from '../state/workflow-state-schema.ts';
import { LIMITS, type Stage } from '../transition-table.ts';

/**
 * The part of a stage prompt that depends on where the requirement is: a first run, a review-fix
 * round, a repair route for a given repair_scope, an environment recovery after TEST_BLOCKED.
 * Derived from the state only, so a resumed run gives the agent the same context.
 */
export function describeSituation(state: WorkflowState, stage: Stage): string {
  const dir = state.artifact_dir;
  const repair = state.repair_round > 0 ? ` (outer repair round ${state.repair_round} of ${LIMITS.repairRounds})` : '';
  switch (stage) {
    case 'plan':
      return 'This is the first stage of the requirement.';
    case 'implement':
      if (state.status === 'REVIEW_NEEDS_FIXES') {
        return `The code review (round ${state.review_round} of at most ${LIMITS.reviewRounds}) asked for fixes. Read the last "## Final Result" block of ${dir}/review-report.md and the findings above it. Fix every Critical and Major finding, and Minor ones where the fix is small. Keep the plan's tasks checked. The change will be reviewed again.`;
      }
      if (state.status === 'TEST_FAIL' && state.repair_scope === 'test-infrastructure') {
        return `The tests failed because of the test infrastructure${repair}. Read the failures in ${dir}/verdict.json. Fix only tests, fixtures or test tooling; do not change production code (this route skips the code review and goes straight back to the tests).`;
      }
      if (state.status === 'TEST_FAIL') {
        return `The tests failed with repair_scope=${state.repair_scope ?? 'unknown'}${repair}. Read the failures in ${dir}/verdict.json and fix the ${state.repair_scope === 'unknown' ? 'code they point at, conservatively' : `${state.repair_scope} problem`}. The fix will be reviewed and tested again.`;
      }
      return `Implement the tasks of ${dir}/plan.md.`;
    case 'code-review':
      return state.review_round > 0
        ? `This is review round ${state.review_round + 1} of at most ${LIMITS.reviewRounds}: check that the findings of the previous Final Result are fixed, and look for new problems the fixes introduced.`
        : 'This is the first review of this change.';
    case 'test':
      if (state.status === 'TEST_BLOCKED') {
        return `The last test run was blocked (see "blocker" in ${dir}/verdict.json). Environment recovery attempt ${state.env_recovery_round} of ${LIMITS.envRecoveryRounds}: repair the environment only (start services, install missing tools, fix configuration), never production code, then run the tests again and write a new verdict.`;
      }
      return state.repair_round > 0
        ? `This is a re-test after repair round ${state.repair_round} (repair_scope=${state.repair_scope ?? 'none'}).`
        : 'Run the tests for this requirement.';
    case 'retrospective':
      return 'The requirement passed review and tests.';
    case 'commit':
      return 'Review, tests and retrospective are complete.';
  }
}
