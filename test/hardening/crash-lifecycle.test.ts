import { describe, it } from 'node:test';
import { lifecycleRecordScenario } from './kill-scenarios.ts';
import { survivesKills } from './kill-trials.ts';

/**
 * `sluice lifecycle record SLUG plan` SIGKILLed at random points: the workflow state always parses
 * and validates, is the old file or exactly the recorded one, never loses a completed stage, result
 * or reroute, and the next run takes over the dead process's lock and records.
 */
describe('crash consistency: sluice lifecycle record', () => {
  it('survives SIGKILL at random points', async (t) => {
    await survivesKills(t, lifecycleRecordScenario, 2);
  });
});
