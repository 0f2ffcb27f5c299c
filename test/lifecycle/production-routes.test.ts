import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { applyEvent, type LifecycleEvent } from '../../plugins/lifecycle/apply-event.ts';
import { applyEvidence, type EvidenceContext } from '../../plugins/lifecycle/apply-evidence.ts';
import { newWorkflowState } from '../../plugins/lifecycle/state/new-workflow-state.ts';
import { workflowStateInvariant } from '../../plugins/lifecycle/state/workflow-state-invariant.ts';
import { type Fingerprint, WorkflowStateSchema, type WorkflowState } from '../../plugins/lifecycle/state/workflow-state-schema.ts';
import {
  isProductionRoute,
  PRODUCTION_GUARDS,
  productionGuarded,
  REPAIR_ROUTES,
  REPAIR_SCOPES,
  STAGES,
  TRANSITIONS,
  type Stage,
  type Verdict,
} from '../../plugins/lifecycle/transition-table.ts';

// The table says where only test infrastructure may change; recording a stage's evidence there with a
// production file changed since the last test takes the production route (code review again) instead.

const NOW = '2025-01-01T00:00:00.000Z';
const fp = (files: Record<string, string>): Fingerprint => ({ head: 'a'.repeat(40), diff: 'b'.repeat(64), files });
const AT_TEST = fp({ 'src/app.ts': '1', 'test/app.test.ts': '1' });
const PRODUCTION_EDIT = fp({ 'src/app.ts': '2', 'test/app.test.ts': '1' });
const TEST_EDIT = fp({ 'src/app.ts': '1', 'test/app.test.ts': '2' });

const verdict = (stage: Stage, v: Verdict, extra: Partial<Extract<LifecycleEvent, { kind: 'verdict' }>> = {}) =>
  ({ kind: 'verdict', stage, verdict: v, ...extra }) as Extract<LifecycleEvent, { kind: 'verdict' }>;

function drive(state: WorkflowState, ...events: LifecycleEvent[]): WorkflowState {
  for (const e of events) {
    const out = applyEvent(state, e, { now: NOW, fingerprint: AT_TEST, caller: null });
    assert.ok(out.ok, out.ok ? '' : out.message);
    state = out.state;
  }
  return state;
}
const reviewed = () =>
  drive(
    newWorkflowState('.prizmkit/specs/demo', null, NOW),
    verdict('plan', 'PLAN_READY'),
    verdict('implement', 'IMPLEMENTED'),
    verdict('code-review', 'PASS'),
  );
const onTestInfrastructureRoute = () => drive(reviewed(), verdict('test', 'TEST_FAIL', { repairScope: 'test-infrastructure', failureCount: 1 }));
const testBlocked = () => drive(reviewed(), verdict('test', 'TEST_BLOCKED'));

function record(state: WorkflowState, event: Extract<LifecycleEvent, { kind: 'verdict' }>, fingerprint: Fingerprint, alone = true) {
  const ctx: EvidenceContext = { now: NOW, fingerprint, caller: null, artifacts: { 'plan.md': 'c'.repeat(64) }, alone };
  const out = applyEvidence(state, event, ctx);
  assert.ok(out.ok, out.ok ? '' : out.message);
  v.parse(WorkflowStateSchema, out.state);
  assert.equal(workflowStateInvariant(state, out.state), undefined);
  return out;
}

describe('production routes: the table', () => {
  it('guards every route that skips code review, and the environment recovery of a blocked test', () => {
    for (const scope of REPAIR_SCOPES) {
      const guarded = PRODUCTION_GUARDS.some((g) => 'route' in g.on && g.on.route === scope);
      assert.equal(guarded, !isProductionRoute(REPAIR_ROUTES[scope]), `repair scope ${scope}`);
    }
    for (const row of TRANSITIONS.filter((r) => r.effect === 'env-recovery'))
      assert.ok(
        PRODUCTION_GUARDS.some((g) => 'status' in g.on && g.on.status === row.status && g.stage === row.stage),
        `${row.id} has a guard`,
      );
    assert.ok(isProductionRoute(REPAIR_ROUTES['review-fixes']));
  });

  it('names only real stages, and only the guarded stages need the workspace check', () => {
    for (const g of PRODUCTION_GUARDS) assert.ok(STAGES.includes(g.stage), g.id);
    assert.deepEqual(
      STAGES.filter((s) => productionGuarded(s)),
      ['implement', 'test'],
    );
  });
});

describe('production routes: recording evidence', () => {
  it('on the test-infrastructure route, a production edit sends implement back through code review, not straight to test', () => {
    const out = record(onTestInfrastructureRoute(), verdict('implement', 'IMPLEMENTED'), PRODUCTION_EDIT);
    assert.equal(out.row, 'production-route');
    assert.equal(out.state.next_stage, 'code-review');
    assert.deepEqual(out.state.completed_stages, ['plan', 'implement']);
    assert.equal(out.state.reroutes.at(-1)?.kind, 'recovery');
    assert.match(out.state.reroutes.at(-1)?.note ?? '', /production files edited on the test-infrastructure route: src\/app\.ts changed/);
    assert.deepEqual(out.state.results.implement?.artifacts, { 'plan.md': 'c'.repeat(64) }, 'the implement record keeps its evidence');
  });

  it('on the test-infrastructure route, a change to tests only keeps the route', () => {
    const out = record(onTestInfrastructureRoute(), verdict('implement', 'IMPLEMENTED'), TEST_EDIT);
    assert.equal(out.row, 'implemented');
    assert.equal(out.state.next_stage, 'test');
  });

  it('with the tests blocked, a production edit drops the test result and goes back to code review', () => {
    const out = record(testBlocked(), verdict('test', 'TEST_PASS'), PRODUCTION_EDIT);
    assert.equal(out.row, 'production-route');
    assert.equal(out.state.next_stage, 'code-review');
    assert.notEqual(out.state.status, 'TEST_PASS');
  });

  it('with another requirement open, the edit may be theirs: the route stands', () => {
    assert.equal(record(onTestInfrastructureRoute(), verdict('implement', 'IMPLEMENTED'), PRODUCTION_EDIT, false).state.next_stage, 'test');
    assert.equal(record(testBlocked(), verdict('test', 'TEST_PASS'), PRODUCTION_EDIT, false).row, 'test-pass');
  });

  it('on a production route nothing is forced', () => {
    const onProduction = drive(reviewed(), verdict('test', 'TEST_FAIL', { repairScope: 'production', failureCount: 1 }));
    const out = record(onProduction, verdict('implement', 'IMPLEMENTED'), PRODUCTION_EDIT);
    assert.equal(out.row, 'implemented');
    assert.equal(out.state.next_stage, 'code-review');
  });
});
