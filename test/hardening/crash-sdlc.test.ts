import { describe, it } from 'node:test';
import { nextConfirmedScenario } from './kill-scenarios.ts';
import { assertSurvived, describeKills, killTrials } from './kill-trials.ts';

/**
 * `sluice next --confirmed` SIGKILLed at random points: state.yaml always parses and validates, is
 * byte for byte the old file or exactly the advanced one, its history never shrinks, and the next
 * run takes over the dead process's lock and advances.
 */
describe('crash consistency: sluice next --confirmed', () => {
  it('survives SIGKILL at random points', async (t) => {
    const { dir, scenario, ms } = await nextConfirmedScenario();
    const stats = await killTrials(dir, scenario, { trials: 60, seed: 1, uncutMs: ms });
    t.diagnostic(describeKills(stats));
    assertSurvived(stats);
  });
});
