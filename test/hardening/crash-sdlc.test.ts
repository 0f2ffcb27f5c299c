import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';
import { SdlcStateSchema, type SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import { assertSurvived, describeKills, killTrials, oldOrNewScenario, uncutRuns } from './kill-trials.ts';
import { projectReadyToAdvance } from './projects.ts';

/**
 * `sluice next --confirmed` SIGKILLed at random points: state.yaml always parses and validates, is
 * byte for byte the old file or exactly the advanced one, its history never shrinks, and the next
 * run takes over the dead process's lock and advances.
 */
describe('crash consistency: sluice next --confirmed', () => {
  it('survives SIGKILL at random points', async (t) => {
    const { dir, statePath, oldText, args } = await projectReadyToAdvance('sluice-crash-sdlc-');
    const { expected, ms } = await uncutRuns(dir, { args, statePath, oldText, parse: parseState });
    const scenario = oldOrNewScenario({
      name: 'next --confirmed',
      args,
      statePath,
      oldText,
      parse: parseState,
      expected,
      keeps(old, now) {
        assert.ok(now.history.length >= old.history.length, `history shrank to ${now.history.length} entries`);
        assert.deepEqual(now.history.slice(0, old.history.length), old.history, 'earlier history entries changed');
      },
    });
    const stats = await killTrials(dir, scenario, { trials: 70, seed: 1, uncutMs: ms });
    t.diagnostic(describeKills(stats));
    assertSurvived(stats);
  });
});

/** Parses and validates as sluice does (the `__proto__`-refusing codec, the schema); throws otherwise. */
function parseState(text: string): SdlcState {
  return v.parse(SdlcStateSchema, safeYamlCodec.parse(text));
}
