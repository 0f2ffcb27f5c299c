import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { newWorkflowState } from '../../plugins/lifecycle/state/new-workflow-state.ts';
import { workflowStateInvariant } from '../../plugins/lifecycle/state/workflow-state-invariant.ts';
import { WorkflowStateSchema, type WorkflowState } from '../../plugins/lifecycle/state/workflow-state-schema.ts';
import { LIMITS, REPAIR_SCOPES, TRANSITIONS, type RepairScope, type Stage, type Verdict } from '../../plugins/lifecycle/transition-table.ts';
import { applyEvent, type EventContext, type LifecycleEvent } from '../../plugins/lifecycle/apply-event.ts';

const NOW = '2025-01-01T00:00:00.000Z';
const FP = { head: 'a'.repeat(40), diff: 'b'.repeat(64) };
const ctx: EventContext = { now: NOW, fingerprint: FP, caller: null };
const verdict = (stage: Stage, v: Verdict, extra: Partial<Extract<LifecycleEvent, { kind: 'verdict' }>> = {}): LifecycleEvent => ({
  kind: 'verdict',
  stage,
  verdict: v,
  ...extra,
});
const COMMIT = {
  sha: 'c'.repeat(40),
  message: 'feat: x',
  paths: ['src/x.ts'],
  authorized_by: { source: 'config' as const, mode: 'ci', owner: 'host' },
  at: NOW,
};

/** Applies one event, insisting that the result is schema-valid and keeps the state invariant. */
function step(state: WorkflowState, event: LifecycleEvent, c: Partial<typeof ctx> = {}): WorkflowState {
  const out = applyEvent(state, event, { ...ctx, ...c });
  assert.ok(out.ok, `refused: ${out.ok ? '' : out.message}`);
  v.parse(WorkflowStateSchema, out.state);
  assert.equal(workflowStateInvariant(state, out.state), undefined);
  return out.state;
}
function refused(state: WorkflowState, event: LifecycleEvent, c: Partial<typeof ctx> = {}) {
  const out = applyEvent(state, event, { ...ctx, ...c });
  assert.ok(!out.ok, 'expected a refusal');
  return out;
}
const drive = (state: WorkflowState, ...events: LifecycleEvent[]) => events.reduce((s, e) => step(s, e), state);

const fresh = () => newWorkflowState('.prizmkit/specs/demo', null, NOW);
const planned = () => drive(fresh(), verdict('plan', 'PLAN_READY'));
const implemented = () => drive(planned(), verdict('implement', 'IMPLEMENTED'));
const reviewed = () => drive(implemented(), verdict('code-review', 'PASS'));
const tested = () => drive(reviewed(), verdict('test', 'TEST_PASS'));
const retro = () => drive(tested(), verdict('retrospective', 'NO_DOC_CHANGE'));
const pending = () => drive(retro(), verdict('commit', 'COMMIT_PENDING'));

describe('transition table: every row', () => {
  const rows: { row: string; from: () => WorkflowState; event: LifecycleEvent; expect: Partial<WorkflowState> }[] = [
    {
      row: 'plan-ready',
      from: fresh,
      event: verdict('plan', 'PLAN_READY'),
      expect: { status: 'PLAN_READY', stage_result: null, completed_stages: ['plan'], next_stage: 'implement', resume_from: 'prizmkit-implement' },
    },
    {
      row: 'implemented',
      from: planned,
      event: verdict('implement', 'IMPLEMENTED'),
      expect: { status: 'IMPLEMENTED', completed_stages: ['plan', 'implement'], next_stage: 'code-review', resume_from: 'prizmkit-code-review' },
    },
    {
      row: 'review-pass',
      from: implemented,
      event: verdict('code-review', 'PASS'),
      expect: { status: 'REVIEW_PASS', stage_result: 'PASS', next_stage: 'test', review_round: 1 },
    },
    {
      row: 'review-needs-fixes',
      from: implemented,
      event: verdict('code-review', 'NEEDS_FIXES'),
      expect: {
        status: 'REVIEW_NEEDS_FIXES',
        stage_result: 'NEEDS_FIXES',
        completed_stages: ['plan'],
        next_stage: 'implement',
        repair_round: 1,
        review_round: 1,
      },
    },
    {
      row: 'test-pass',
      from: reviewed,
      event: verdict('test', 'TEST_PASS'),
      expect: { status: 'TEST_PASS', stage_result: 'TEST_PASS', next_stage: 'retrospective', resume_from: 'prizmkit-retrospective', repair_scope: null },
    },
    {
      row: 'test-fail',
      from: reviewed,
      event: verdict('test', 'TEST_FAIL', { repairScope: 'production', failureCount: 1 }),
      expect: {
        status: 'TEST_FAIL',
        stage_result: 'TEST_FAIL',
        completed_stages: ['plan'],
        next_stage: 'implement',
        repair_round: 1,
        repair_scope: 'production',
      },
    },
    {
      row: 'test-pass-production-changed',
      from: reviewed,
      event: verdict('test', 'TEST_PASS_PRODUCTION_CHANGED'),
      expect: {
        status: 'TEST_PASS',
        stage_result: null,
        completed_stages: ['plan', 'implement'],
        next_stage: 'code-review',
        resume_from: 'prizmkit-code-review',
        repair_round: 1,
        repair_scope: 'production',
      },
    },
    {
      row: 'test-needs-fixes',
      from: reviewed,
      event: verdict('test', 'TEST_NEEDS_FIXES', { repairScope: 'production', failureCount: 1 }),
      expect: {
        status: 'TEST_NEEDS_FIXES',
        stage_result: 'TEST_NEEDS_FIXES',
        completed_stages: ['plan'],
        next_stage: 'implement',
        repair_round: 1,
        repair_scope: 'production',
      },
    },
    {
      row: 'test-blocked',
      from: reviewed,
      event: verdict('test', 'TEST_BLOCKED'),
      expect: {
        status: 'TEST_BLOCKED',
        stage_result: 'TEST_BLOCKED',
        completed_stages: ['plan', 'implement', 'code-review'],
        next_stage: 'test',
        resume_from: 'prizmkit-test',
        env_recovery_round: 1,
        repair_round: 0,
      },
    },
    {
      row: 'retro-docs-updated',
      from: tested,
      event: verdict('retrospective', 'DOCS_UPDATED'),
      expect: { status: 'RETRO_COMPLETE', stage_result: 'DOCS_UPDATED', next_stage: 'commit', resume_from: 'prizmkit-committer' },
    },
    {
      row: 'retro-no-doc-change',
      from: tested,
      event: verdict('retrospective', 'NO_DOC_CHANGE'),
      expect: { status: 'RETRO_COMPLETE', stage_result: 'NO_DOC_CHANGE', next_stage: 'commit' },
    },
    {
      row: 'commit-pending',
      from: retro,
      event: verdict('commit', 'COMMIT_PENDING'),
      expect: { status: 'COMMIT_PENDING', next_stage: 'commit', completed_stages: ['plan', 'implement', 'code-review', 'test', 'retrospective'] },
    },
    {
      row: 'committed',
      from: pending,
      event: verdict('commit', 'COMMITTED', { commit: COMMIT }),
      expect: {
        status: 'COMMITTED',
        next_stage: null,
        resume_from: null,
        commit: COMMIT,
        completed_stages: ['plan', 'implement', 'code-review', 'test', 'retrospective', 'commit'],
      },
    },
  ];

  it('has a case for every row of the table', () => {
    assert.deepEqual(rows.map((r) => r.row).sort(), TRANSITIONS.map((r) => r.id).sort());
  });
  for (const c of rows) {
    it(`${c.row}: ${c.event.kind === 'verdict' ? `${c.event.stage} ${c.event.verdict}` : ''} → ${c.expect.status}`, () => {
      const before = c.from();
      const after = step(before, c.event);
      for (const [key, value] of Object.entries(c.expect)) assert.deepEqual(after[key as keyof WorkflowState], value, key);
      const stage = (c.event as { stage: Stage }).stage;
      assert.equal(after.stage, stage);
      assert.deepEqual(after.results[stage]?.fingerprint, FP, 'the stage result records the workspace fingerprint');
    });
  }
});

describe('transition table: repair routes', () => {
  /** Follows next_stage with passing verdicts until test runs again; returns the stages visited. */
  function routeAfter(state: WorkflowState): Stage[] {
    const seen: Stage[] = [];
    const pass: Record<string, Verdict> = { implement: 'IMPLEMENTED', 'code-review': 'PASS', test: 'TEST_PASS' };
    while (state.next_stage && seen.at(-1) !== 'test') {
      seen.push(state.next_stage);
      state = step(state, verdict(state.next_stage, pass[state.next_stage]));
    }
    assert.equal(state.status, 'TEST_PASS');
    return seen;
  }
  const expected: Record<RepairScope, Stage[]> = {
    'test-infrastructure': ['implement', 'test'],
    production: ['implement', 'code-review', 'test'],
    runtime: ['implement', 'code-review', 'test'],
    schema: ['implement', 'code-review', 'test'],
    dependency: ['implement', 'code-review', 'test'],
    'public-interface': ['implement', 'code-review', 'test'],
    unknown: ['implement', 'code-review', 'test'],
  };
  for (const scope of REPAIR_SCOPES) {
    it(`TEST_FAIL with repair_scope=${scope} → ${expected[scope].join(' → ')}`, () => {
      const failed = step(reviewed(), verdict('test', 'TEST_FAIL', { repairScope: scope, failureCount: 2 }));
      assert.equal(failed.repair_round, 1);
      assert.equal(failed.reroutes.at(-1)?.kind, 'test-repair');
      assert.deepEqual(routeAfter(failed), expected[scope]);
    });
  }
  it('REVIEW_NEEDS_FIXES → implement → code-review → test, counting one outer round', () => {
    const s = step(implemented(), verdict('code-review', 'NEEDS_FIXES'));
    assert.equal(s.repair_round, 1);
    assert.deepEqual(routeAfter(s), ['implement', 'code-review', 'test']);
  });
  it('repair_scope=unknown with no failing test named → WORKFLOW_BLOCKED (unknown-scope-unsafe)', () => {
    const s = step(reviewed(), verdict('test', 'TEST_FAIL', { repairScope: 'unknown', failureCount: 0 }));
    assert.equal(s.status, 'WORKFLOW_BLOCKED');
    assert.equal(s.blocker?.rule, 'unknown-scope-unsafe');
    assert.equal(s.repair_round, 0);
  });
  it('TEST_FAIL without a repair_scope is refused (test-fail-needs-scope)', () => {
    assert.equal(refused(reviewed(), verdict('test', 'TEST_FAIL')).rule, 'test-fail-needs-scope');
  });
  it('TEST_BLOCKED never routes to implement: only the test stage may run', () => {
    const s = step(reviewed(), verdict('test', 'TEST_BLOCKED'));
    const out = refused(s, verdict('implement', 'IMPLEMENTED'));
    assert.equal(out.rule, 'test-blocked-no-production-edits');
    assert.equal(step(s, verdict('test', 'TEST_PASS')).status, 'TEST_PASS');
  });
  it('RETRO_BLOCKED → WORKFLOW_BLOCKED', () => {
    const s = step(tested(), { kind: 'blocked', stage: 'retrospective', reason: 'docs folder is read-only' });
    assert.equal(s.status, 'WORKFLOW_BLOCKED');
    assert.equal(s.stage_result, 'RETRO_BLOCKED');
    assert.equal(s.blocker?.rule, 'retro-blocked');
  });
});

describe('transition table: bounded rounds', () => {
  it(`allows ${LIMITS.repairRounds} outer repair rounds, then blocks (repair-round-limit)`, () => {
    let s = reviewed();
    for (let round = 1; round <= LIMITS.repairRounds; round++) {
      s = step(s, verdict('test', 'TEST_FAIL', { repairScope: 'runtime', failureCount: 1 }));
      assert.equal(s.repair_round, round);
      s = drive(s, verdict('implement', 'IMPLEMENTED'), verdict('code-review', 'PASS'));
    }
    s = step(s, verdict('test', 'TEST_FAIL', { repairScope: 'runtime', failureCount: 1 }));
    assert.equal(s.status, 'WORKFLOW_BLOCKED');
    assert.equal(s.blocker?.rule, 'repair-round-limit');
    assert.equal(s.repair_round, LIMITS.repairRounds);
  });
  it(`counts review fixes (REVIEW_NEEDS_FIXES → implement) as outer rounds: the ${LIMITS.repairRounds + 1}th NEEDS_FIXES blocks`, () => {
    let s = implemented();
    for (let round = 1; round <= LIMITS.repairRounds; round++) {
      s = drive(s, verdict('code-review', 'NEEDS_FIXES'));
      assert.equal(s.repair_round, round);
      assert.equal(s.reroutes.at(-1)?.kind, 'review-fixes');
      s = drive(s, verdict('implement', 'IMPLEMENTED'));
    }
    s = step(s, verdict('code-review', 'NEEDS_FIXES'));
    assert.equal(s.status, 'WORKFLOW_BLOCKED');
    assert.equal(s.blocker?.rule, 'repair-round-limit');
    assert.equal(s.repair_round, LIMITS.repairRounds);
  });
  it('shares one budget across routes: review fixes, a test repair and a production-changing pass', () => {
    let s = drive(implemented(), verdict('code-review', 'NEEDS_FIXES'), verdict('implement', 'IMPLEMENTED'), verdict('code-review', 'PASS'));
    s = drive(s, verdict('test', 'TEST_FAIL', { repairScope: 'test-infrastructure', failureCount: 1 }), verdict('implement', 'IMPLEMENTED'));
    assert.equal(s.next_stage, 'test', 'test-infrastructure skips review');
    s = drive(s, verdict('test', 'TEST_PASS_PRODUCTION_CHANGED'));
    assert.equal(s.repair_round, 3);
    assert.equal(s.next_stage, 'code-review', 'a pass that changed production code is reviewed again');
    s = drive(s, verdict('code-review', 'PASS'), verdict('test', 'TEST_PASS_PRODUCTION_CHANGED'));
    assert.equal(s.status, 'WORKFLOW_BLOCKED');
    assert.equal(s.blocker?.rule, 'repair-round-limit');
    assert.equal(s.next_stage, 'test');
  });
  it('blocks PLAN_BLOCKED and IMPLEMENT_BLOCKED with their own stage results', () => {
    const p = step(fresh(), { kind: 'blocked', stage: 'plan', reason: 'PLAN_BLOCKED: unresolved corrections' });
    assert.deepEqual([p.status, p.stage_result, p.blocker?.rule, p.next_stage], ['WORKFLOW_BLOCKED', 'PLAN_BLOCKED', 'stage-blocked', 'plan']);
    const i = step(planned(), { kind: 'blocked', stage: 'implement', reason: 'spec.md missing' });
    assert.deepEqual([i.status, i.stage_result], ['WORKFLOW_BLOCKED', 'IMPLEMENT_BLOCKED']);
  });
  it('starts a new review loop after an outer repair', () => {
    const s = drive(
      implemented(),
      verdict('code-review', 'NEEDS_FIXES'),
      verdict('implement', 'IMPLEMENTED'),
      verdict('code-review', 'PASS'),
      verdict('test', 'TEST_FAIL', { repairScope: 'schema', failureCount: 1 }),
    );
    assert.equal(s.review_round, 0);
  });
  it(`allows ${LIMITS.envRecoveryRounds} environment recovery attempts after TEST_BLOCKED, then blocks`, () => {
    let s = reviewed();
    for (let i = 1; i <= LIMITS.envRecoveryRounds; i++) s = step(s, verdict('test', 'TEST_BLOCKED'));
    s = step(s, verdict('test', 'TEST_BLOCKED'));
    assert.equal(s.status, 'WORKFLOW_BLOCKED');
    assert.equal(s.blocker?.rule, 'env-recovery-limit');
  });
});

describe('transition table: refusals name their rule', () => {
  it('stage-order: a result for a stage that is not next', () => {
    const out = refused(planned(), verdict('test', 'TEST_PASS'));
    assert.equal(out.rule, 'stage-order');
    assert.match(out.message, /the next stage is implement/);
  });
  it('stage-order: a verdict that does not belong to the stage', () => {
    assert.equal(refused(implemented(), verdict('code-review', 'TEST_PASS')).rule, 'stage-order');
  });
  it('commit-needs-pending: COMMITTED straight after the retrospective', () => {
    assert.equal(refused(retro(), verdict('commit', 'COMMITTED', { commit: COMMIT })).rule, 'commit-needs-pending');
  });
  it('committed-is-final', () => {
    const done = step(pending(), verdict('commit', 'COMMITTED', { commit: COMMIT }));
    assert.equal(refused(done, verdict('commit', 'COMMIT_PENDING')).rule, 'committed-is-final');
  });
  it('blocked-until-resolved: no stage runs while WORKFLOW_BLOCKED', () => {
    const s = step(planned(), { kind: 'blocked', stage: 'implement', reason: 'delegate crashed' });
    assert.equal(refused(s, verdict('implement', 'IMPLEMENTED')).rule, 'blocked-until-resolved');
  });
  it('orchestrator-ownership: only the recorded orchestrator advances', () => {
    const owned = { ...planned(), orchestrator: 'sluice-run' };
    const direct = refused(owned, verdict('implement', 'IMPLEMENTED'));
    assert.equal(direct.rule, 'orchestrator-ownership');
    assert.equal(direct.code, 'ORCHESTRATOR_MISMATCH');
    assert.equal(refused(owned, verdict('implement', 'IMPLEMENTED'), { caller: 'other' }).code, 'ORCHESTRATOR_MISMATCH');
    assert.equal(step(owned, verdict('implement', 'IMPLEMENTED'), { caller: 'sluice-run' }).status, 'IMPLEMENTED');
  });
  it('unblock-needs-blocker', () => {
    assert.equal(refused(planned(), { kind: 'unblock', resolution: 'x', workspaceChanged: true }).rule, 'unblock-needs-blocker');
  });
});

describe('transition table: unblocking', () => {
  const exhausted = () => {
    let s = reviewed();
    for (let i = 0; i <= LIMITS.repairRounds; i++) {
      s = step(s, verdict('test', 'TEST_FAIL', { repairScope: 'production', failureCount: 1 }));
      if (s.status !== 'WORKFLOW_BLOCKED') s = drive(s, verdict('implement', 'IMPLEMENTED'), verdict('code-review', 'PASS'));
    }
    return s;
  };
  it('a round limit stays blocked until the workspace changed', () => {
    const out = refused(exhausted(), { kind: 'unblock', resolution: 'looked at it', workspaceChanged: false });
    assert.equal(out.rule, 'blocked-until-resolved');
  });
  it('after a manual fix, the fix is reviewed and tested again; the round counter stays', () => {
    const s = step(exhausted(), { kind: 'unblock', resolution: 'fixed the parser by hand', workspaceChanged: true });
    assert.equal(s.blocker, null);
    assert.equal(s.next_stage, 'code-review');
    assert.deepEqual(s.completed_stages, ['plan', 'implement']);
    assert.equal(s.repair_round, LIMITS.repairRounds);
    assert.equal(s.reroutes.at(-1)?.note, 'fixed the parser by hand');
    const again = drive(s, verdict('code-review', 'PASS'), verdict('test', 'TEST_FAIL', { repairScope: 'production', failureCount: 1 }));
    assert.equal(again.status, 'WORKFLOW_BLOCKED', 'no automatic repair rounds are left');
  });
  it('an environment blocker resumes at the test stage with a fresh recovery budget', () => {
    let s = reviewed();
    for (let i = 0; i <= LIMITS.envRecoveryRounds; i++) s = step(s, verdict('test', 'TEST_BLOCKED'));
    s = step(s, { kind: 'unblock', resolution: 'database restarted', workspaceChanged: false });
    assert.equal(s.next_stage, 'test');
    assert.equal(s.env_recovery_round, 0);
    assert.equal(s.status, 'TEST_BLOCKED');
  });
});
