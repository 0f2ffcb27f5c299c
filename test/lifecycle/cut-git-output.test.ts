import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createKernel, SluiceError, type Host, type SpawnOptions } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runCommitStage } from '../../plugins/lifecycle/commit/commit-stage.ts';
import { createLifecycleContext } from '../../plugins/lifecycle/lifecycle-context.ts';
import { readWorkflowState } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { recordSteps, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { evidence, gitIn, makeRepo, userGrantFile, writeFiles } from './lifecycle-fixture.ts';

const SLUG = 'feature';

/**
 * How the output of `git log -1` (the commit sluice reads back after making it) arrives: whole, cut
 * short by a pipe something else held open (the host stopped reading: `stdioHeld`), or empty although
 * git exited 0 (what a loaded machine once produced).
 */
type Cut = 'whole' | 'held' | 'empty';

/** A project whose host cuts the read-back commit's output as `cut.mode` says. */
async function projectWithCut() {
  const root = await makeRepo();
  const base = createNodeHost({ cwd: root });
  const cut: { mode: Cut } = { mode: 'whole' };
  const host: Host = {
    ...base,
    env: (name) => (name === 'SLUICE_COMMIT_GRANT' ? undefined : base.env(name)),
    spawn: async (o: SpawnOptions) => {
      if (cut.mode === 'whole' || o.command !== 'git' || !(o.args.includes('log') && o.args.includes('-1'))) return base.spawn(o);
      const r = await base.spawn({ ...o, onStdout: () => {} });
      return cut.mode === 'held' ? { ...r, stdioHeld: true } : r;
    },
  };
  const kernel = await createKernel({ host, projectRoot: root, plugins: builtinPlugins });
  const lc = createLifecycleContext(kernel, root);
  await startRequirement(lc, SLUG);
  await recordSteps(root, lc, SLUG, throughRetrospective(SLUG));
  await writeFiles(root, evidence.commitRequest(SLUG, ['src/feature.js', '.prizmkit/specs/feature']));
  return { root, lc, cut };
}

describe('git output cut short after the commit is made', () => {
  for (const mode of ['held', 'empty'] as const) {
    it(`${mode}: a named GIT_FAILED, not an internal error; the next run finds the commit and records it`, async () => {
      const { root, lc, cut } = await projectWithCut();
      const grant = { userConfigFile: await userGrantFile() };
      cut.mode = mode;
      await assert.rejects(runCommitStage(lc, SLUG, null, grant), (e: unknown) => {
        assert.ok(e instanceof SluiceError, `a SluiceError, not ${String(e)}`);
        assert.equal(e.code, 'GIT_FAILED');
        assert.match(
          e.message,
          mode === 'held' ? /git log exited but its output did not finish/ : /git log printed an incomplete record for commit [0-9a-f]{40}/,
        );
        return true;
      });
      assert.equal((await readWorkflowState(lc, SLUG)).status, 'COMMIT_PENDING', 'not recorded from a half-read commit');
      cut.mode = 'whole';
      const again = await runCommitStage(lc, SLUG, null, grant);
      assert.equal(again.state.status, 'COMMITTED');
      assert.equal(again.state.commit?.sha, gitIn(root, 'rev-parse', 'HEAD').trim());
      assert.equal(Number(gitIn(root, 'rev-list', '--count', 'HEAD').trim()), 2, 'the commit was not made twice');
    });
  }
});
