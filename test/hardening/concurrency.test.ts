import assert from 'node:assert/strict';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { jsonCodec } from '../../core/index.ts';
import { WorkflowStateSchema } from '../../plugins/lifecycle/state/workflow-state-schema.ts';
import { safeYamlCodec } from '../../plugins/sdlc/state/safe-yaml-codec.ts';
import { activePhaseProblem } from '../../plugins/sdlc/state/state-invariant.ts';
import { SdlcStateSchema } from '../../plugins/sdlc/state/state-schema.ts';
import { evidence, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { scaled } from './fuzz-inputs.ts';
import { runSluice, type CliResult } from './cli-bundle.ts';
import { projectReadyToAdvance } from './projects.ts';

/**
 * Eight processes race for one state file. Exactly one wins; every other one exits 3 (busy) or
 * reports that the project moved on, and the state records exactly one transition.
 */
interface JsonOut {
  status?: string;
  phase?: { id: string };
  next?: { id: string };
  error?: { code: string; message: string };
}
const out = (r: CliResult) => JSON.parse(r.stdout) as JsonOut;

describe('concurrent invocations on one project', () => {
  it('8 parallel `sluice next --confirmed`: exactly one advances, the others are busy or see the new phase; history gains one entry', async (t) => {
    const { dir, statePath, oldText, args, restoreRecords } = await projectReadyToAdvance('sluice-race-');
    const tally: Record<string, number> = {};
    for (let round = 0; round < scaled(3); round++) {
      writeFileSync(statePath, oldText);
      restoreRecords();
      // Odd rounds: no waiting for the lock, so racers that find it taken exit 3 at once.
      writeFileSync(join(dir, 'sluice.config.yaml'), round % 2 === 1 ? 'lockWaitMs: 0\n' : '{}\n');
      const runs = await Promise.all(Array.from({ length: 8 }, () => runSluice(dir, args)));
      const why = JSON.stringify(runs.map((r) => `${r.code} ${r.stderr.trim()}`));
      const winners = runs.filter((r) => r.code === 0);
      assert.equal(winners.length, 1, `round ${round}: exactly one advances: ${why}`);
      assert.equal(out(winners[0]).status, 'advanced');
      assert.equal(out(winners[0]).next?.id, '1');
      for (const r of runs.filter((x) => x !== winners[0])) {
        const doc = out(r);
        const kind =
          r.code === 3 && doc.error?.code === 'LOCK_BUSY'
            ? 'busy'
            : r.code === 1 && doc.error?.code === 'PHASE_MOVED' && /moved to phase 1\b/.test(doc.error.message)
              ? 'phase moved'
              : r.code === 1 && doc.phase?.id === '1'
                ? 'started in phase 1'
                : undefined;
        assert.ok(kind, `round ${round}: a loser neither busy nor reporting phase 1: ${r.code} ${r.stdout.slice(0, 300)} ${r.stderr}`);
        tally[kind] = (tally[kind] ?? 0) + 1;
      }
      const state = v.parse(SdlcStateSchema, safeYamlCodec.parse(readFileSync(statePath, 'utf8')));
      assert.equal(state.history.length, 1, `round ${round}: history has exactly one new entry`);
      assert.equal(String(state.current_phase), '1');
      assert.equal(activePhaseProblem(state), undefined);
      assert.equal(existsSync(`${statePath}.lock`), false, 'no lock left behind');
    }
    t.diagnostic(`losers: ${JSON.stringify(tally)}`);
    assert.ok(tally['phase moved'] > 0, 'some racers saw the phase move under them');
  });

  it('8 parallel `sluice lifecycle record SLUG plan`: exactly one records, the others are busy or refused by the stage order', async (t) => {
    const dir = await makeRepo();
    assert.equal((await runSluice(dir, ['lifecycle', 'start', 'feat-a', '--goal', 'parse durations'])).code, 0);
    await writeFiles(dir, evidence.plan('feat-a'));
    const statePath = join(dir, '.prizmkit', 'state', 'workflows', 'feat-a.json');
    const runs = await Promise.all(Array.from({ length: 8 }, () => runSluice(dir, ['lifecycle', 'record', 'feat-a', 'plan', '--json'])));
    const why = JSON.stringify(runs.map((r) => `${r.code} ${r.stderr.trim()}`));
    assert.equal(runs.filter((r) => r.code === 0).length, 1, `exactly one records: ${why}`);
    const tally: Record<string, number> = {};
    for (const r of runs.filter((x) => x.code !== 0)) {
      const code = out(r).error?.code;
      assert.ok(
        (r.code === 3 && code === 'LOCK_BUSY') || (r.code === 1 && code === 'LIFECYCLE_RULE'),
        `a loser neither busy nor refused: ${r.code} ${r.stderr}`,
      );
      tally[code!] = (tally[code!] ?? 0) + 1;
    }
    const state = v.parse(WorkflowStateSchema, jsonCodec.parse(readFileSync(statePath, 'utf8')));
    assert.deepEqual(state.completed_stages, ['plan']);
    assert.equal(state.status, 'PLAN_READY');
    t.diagnostic(`losers: ${JSON.stringify(tally)}`);
  });
});
