import { describe, it } from 'node:test';
import { nextConfirmedScenario } from './kill-scenarios.ts';
import { survivesKills } from './kill-trials.ts';

/**
 * `sluice next --confirmed` SIGKILLed at random points: state.yaml always parses and validates, is
 * byte for byte the old file or exactly the advanced one, its history never shrinks, and the next
 * run takes over the dead process's lock and advances.
 */
describe('crash consistency: sluice next --confirmed', () => {
  it('survives SIGKILL at random points', async (t) => {
    await survivesKills(t, nextConfirmedScenario, 1);
  });
});
