import { describe, it } from 'node:test';
import { lifecycleRecordScenario } from './kill-scenarios.ts';
import { assertSurvived, describeKills, killTrials } from './kill-trials.ts';

/**
 * `sluice lifecycle record SLUG plan` SIGKILLed at random points: the workflow state always parses
 * and validates, is the old file or exactly the recorded one, never loses a completed stage, result
 * or reroute, and the next run takes over the dead process's lock and records.
 */
describe('crash consistency: sluice lifecycle record', () => {
  it('survives SIGKILL at random points', async (t) => {
    const { dir, scenario, ms } = await lifecycleRecordScenario();
    const stats = await killTrials(dir, scenario, { trials: 60, seed: 2, uncutMs: ms });
    t.diagnostic(describeKills(stats));
    assertSurvived(stats);
  });
});
