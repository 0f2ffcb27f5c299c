import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SluiceError } from '../../core/index.ts';
import { parsePlanTasks } from '../../plugins/lifecycle/readers/plan-tasks-reader.ts';

/** Reader failures the fuzzing found (beyond the codecs), each kept as the case that found it. */
describe('reader regressions found by fuzzing', () => {
  it('plan.md: a repeated task id is named (the error said only "a task id appears twice")', async () => {
    await assert.rejects(parsePlanTasks('- [ ] [T-001] a\n- [x] [T-002] b\n- [ ] [T-001] c\n', '.prizmkit/specs/x/plan.md'), (e: unknown) => {
      assert.ok(e instanceof SluiceError);
      assert.equal(e.message, 'ARTIFACT_INVALID: .prizmkit/specs/x/plan.md: task id T-001 appears twice');
      return true;
    });
  });
});
