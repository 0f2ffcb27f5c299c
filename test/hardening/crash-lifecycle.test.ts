import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { jsonCodec } from '../../core/index.ts';
import { WorkflowStateSchema, type WorkflowState } from '../../plugins/lifecycle/state/workflow-state-schema.ts';
import { evidence, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { runSluice } from './cli-bundle.ts';
import { assertSurvived, describeKills, killTrials, oldOrNewScenario, uncutRuns } from './kill-trials.ts';

/**
 * `sluice lifecycle record SLUG plan` SIGKILLed at random points: the workflow state always parses
 * and validates, is the old file or exactly the recorded one, never loses a completed stage, result
 * or reroute, and the next run takes over the dead process's lock and records.
 */
describe('crash consistency: sluice lifecycle record', () => {
  it('survives SIGKILL at random points', async (t) => {
    const dir = await makeRepo();
    const start = await runSluice(dir, ['lifecycle', 'start', 'feat-a', '--goal', 'parse durations']);
    assert.equal(start.code, 0, start.stderr);
    await writeFiles(dir, evidence.plan('feat-a'));
    const statePath = join(dir, '.prizmkit', 'state', 'workflows', 'feat-a.json');
    const oldText = readFileSync(statePath, 'utf8');
    const args = ['lifecycle', 'record', 'feat-a', 'plan', '--json'];
    const { expected, ms } = await uncutRuns(dir, { args, statePath, oldText, parse: parseState });
    assert.equal(expected.status, 'PLAN_READY');
    const scenario = oldOrNewScenario({
      name: 'lifecycle record',
      args,
      statePath,
      oldText,
      parse: parseState,
      expected,
      keeps(old, now) {
        for (const stage of old.completed_stages) assert.ok(now.completed_stages.includes(stage), `completed stage ${stage} was lost`);
        for (const stage of Object.keys(old.results)) assert.ok(stage in now.results, `the ${stage} result was lost`);
        assert.ok(now.reroutes.length >= old.reroutes.length, 'reroutes shrank');
      },
    });
    const stats = await killTrials(dir, scenario, { trials: 70, seed: 2, uncutMs: ms });
    t.diagnostic(describeKills(stats));
    assertSurvived(stats);
  });
});

function parseState(text: string): WorkflowState {
  return v.parse(WorkflowStateSchema, jsonCodec.parse(text));
}
