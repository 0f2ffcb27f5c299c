import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tuneIterationScenario } from './kill-scenarios.ts';
import { survivesKills } from './kill-trials.ts';

/**
 * A two-iteration tune on the script backend, SIGKILLed at random points and resumed
 * (`tune --resume`, itself killed at random) until it finishes. After every kill,
 * iteration-state.json parses, validates and is exactly one of the states an uncut run writes; the
 * skill is one of the versions an uncut run leaves, never half-written; iterations and scores only
 * grow. Every finished run ends as the uncut run ends.
 */
describe('crash consistency: a skill-tune iteration', () => {
  it('survives SIGKILL at random points, and --resume finishes the run as an uncut run does', async (t) => {
    const stats = await survivesKills(t, tuneIterationScenario, 3);
    assert.ok(Object.keys(stats.found).length >= 4, `kills landed in several steps: ${JSON.stringify(stats.found)}`);
  });
});
