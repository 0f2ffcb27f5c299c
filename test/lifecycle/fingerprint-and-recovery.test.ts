import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { SluiceError } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { readWorkflowState } from '../../plugins/lifecycle/record-stage.ts';
import { recoverRequirement } from '../../plugins/lifecycle/recovery/recover-requirement.ts';
import { computeFingerprint, createFingerprinter } from '../../plugins/lifecycle/workspace/workspace-fingerprint.ts';
import { recordedRequirement, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { gitIn, makeLifecycle, makeRepo, writeFiles } from './lifecycle-fixture.ts';

const host = createNodeHost();

describe('workspace fingerprint', () => {
  it('is HEAD plus a hash of uncommitted content; sluice runtime data and ignored files do not count', async () => {
    const root = await makeRepo({ 'src/a.js': 'one\n' });
    const clean = await computeFingerprint(host, root);
    assert.equal(clean?.head, gitIn(root, 'rev-parse', 'HEAD').trim());
    await writeFiles(root, { '.prizmkit/state/workflows/x.json': '{}', '.sluice/transcripts/t.log': 'x', 'build/out.js': 'ignored' });
    assert.deepEqual(await computeFingerprint(host, root), clean, 'state, transcripts and ignored files are not code');
    await writeFiles(root, { 'src/a.js': 'two\n' });
    const edited = await computeFingerprint(host, root);
    assert.notEqual(edited?.diff, clean?.diff, 'a tracked change counts');
    await writeFiles(root, { 'src/a.js': 'three\n' });
    assert.notEqual((await computeFingerprint(host, root))?.diff, edited?.diff, 'the content counts, not only which files changed');
    await writeFiles(root, { 'src/a.js': 'one\n', 'src/new.js': 'x' });
    const untracked = await computeFingerprint(host, root);
    assert.notEqual(untracked?.diff, clean?.diff, 'an untracked, non-ignored file counts');
    await rm(join(root, 'src/new.js'));
    assert.deepEqual(await computeFingerprint(host, root), clean, 'undoing every change gives the same fingerprint');
    await writeFiles(root, { 'src/a.js': 'committed\n' });
    gitIn(root, 'commit', '-q', '-am', 'change');
    assert.notEqual((await computeFingerprint(host, root))?.head, clean?.head);
  });
  it('is null outside a git work tree', async () => {
    assert.equal(await computeFingerprint(host, await mkdtemp(join(tmpdir(), 'sluice-nogit-'))), null);
  });
  it('coalesces concurrent requests, and a request made during a computation gets a later one', async () => {
    let computed = 0;
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const fp = createFingerprinter(async () => {
      const n = ++computed;
      if (n === 1) await gate;
      return { head: null, diff: String(n).padStart(64, '0') };
    });
    const first = fp();
    const during = Array.from({ length: 10 }, () => fp());
    release();
    const [a, ...rest] = await Promise.all([first, ...during]);
    assert.equal(computed, 2, 'ten waiting callers share one computation');
    assert.equal(a?.diff.endsWith('1'), true);
    assert.ok(
      rest.every((r) => r?.diff.endsWith('2')),
      'callers that arrived during the first computation see a later one',
    );
  });
});

/** A new repository with requirement `feature` recorded through plan, implement, review PASS and test PASS. */
const throughTest = () => recordedRequirement('feature', throughRetrospective('feature').slice(0, 4));

/**
 * Deletes `feature`'s state file and journal: on the machine that anchored the journal that is a
 * rollback recover refuses (JOURNAL_ROLLED_BACK); on another machine (a fresh state folder, no anchor)
 * recovery rebuilds from artifacts alone. Returns that other machine's lifecycle.
 */
async function removeRecords(root: string, lc: Awaited<ReturnType<typeof makeLifecycle>>['lc']) {
  await rm(join(root, '.prizmkit/state/workflows/feature.json'));
  await rm(join(root, '.prizmkit/state/journal/feature.jsonl'));
  await assert.rejects(recoverRequirement(lc, 'feature', null), (e: SluiceError) => e.code === 'JOURNAL_ROLLED_BACK');
  return (await makeLifecycle(root, { XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'sluice-other-machine-')) })).lc;
}

describe('recovery (sluice lifecycle recover)', () => {
  it('reports all nine steps; fresh state is kept and resumes at its next stage', async () => {
    const { root, lc } = await throughTest();
    const r = await recoverRequirement(lc, 'feature', null);
    assert.deepEqual(
      r.steps.map((s) => s.step),
      [1, 2, 3, 4, 5, 6, 7, 8, 9],
    );
    assert.equal(r.written, false);
    assert.equal(r.state.next_stage, 'retrospective');
    assert.match(r.steps[1].finding, /2\/2 tasks checked.*recorded results are fresh/);
    assert.match(r.steps[3].finding, /verdict\.json: TEST_PASS/);
  });

  it('a code change after review and test makes them stale: they run again, recorded as a recovery reroute', async () => {
    const { root, lc } = await throughTest();
    await writeFiles(root, { 'src/feature.js': 'export const x = 2; // edited after the tests passed\n' });
    const r = await recoverRequirement(lc, 'feature', null);
    assert.deepEqual(r.removed, ['code-review', 'test']);
    assert.equal(r.state.next_stage, 'code-review');
    assert.equal(r.state.status, 'IMPLEMENTED');
    assert.equal(r.state.reroutes.at(-1)?.kind, 'recovery');
    assert.match(r.steps[2].finding, /not trusted: the workspace changed/);
  });

  it('without state and journal, artifacts alone never establish review or test: resumes at code-review', async () => {
    const { root, lc: here } = await throughTest();
    const lc = await removeRecords(root, here);
    const r = await recoverRequirement(lc, 'feature', null);
    assert.equal(r.written, true);
    assert.deepEqual(r.state.completed_stages, ['plan', 'implement']);
    assert.equal(r.state.next_stage, 'code-review');
    assert.equal((await readWorkflowState(lc, 'feature')).next_stage, 'code-review');
  });

  it('an artifact that no longer supports a completed stage sends the requirement back to it', async () => {
    const { root, lc } = await throughTest();
    await writeFiles(root, { '.prizmkit/specs/feature/plan.md': '- [x] [T-001] a\n- [ ] [T-002] b\n' });
    const r = await recoverRequirement(lc, 'feature', null);
    assert.deepEqual(r.state.completed_stages, ['plan']);
    assert.equal(r.state.next_stage, 'implement');
  });

  it('moves a corrupt state file aside instead of overwriting it, then rebuilds', async () => {
    const { root, lc } = await throughTest();
    await writeFile(join(root, '.prizmkit/state/workflows/feature.json'), '{ "schema_version": 1, ');
    const r = await recoverRequirement(lc, 'feature', null);
    assert.match(r.movedAside ?? '', /^\.prizmkit\/state\/workflows\/feature\.json\.corrupt-/);
    assert.equal(r.state.next_stage, 'retrospective', 'rebuilt from the journal: review and test still describe the code');
    assert.equal((await readWorkflowState(lc, 'feature')).next_stage, 'retrospective');
  });

  it("a trailer commit nobody recorded an intent for is not taken as the requirement's commit (COMMIT_UNRECOGNIZED)", async () => {
    const { root, lc: here } = await throughTest();
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'feat: feature', '--trailer', 'Lifecycle-Requirement: feature');
    const lc = await removeRecords(root, here);
    const r = await recoverRequirement(lc, 'feature', null);
    assert.notEqual(r.state.status, 'COMMITTED');
    assert.equal(r.unrecognizedCommit, gitIn(root, 'rev-parse', 'HEAD').trim());
    assert.match(r.steps[5].finding, /COMMIT_UNRECOGNIZED/);
  });

  it('refuses a slug with no artifacts, and a bad slug', async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await assert.rejects(recoverRequirement(lc, 'nothing-here', null), (e: SluiceError) => e.code === 'ARTIFACT_MISSING');
    await assert.rejects(recoverRequirement(lc, '../../etc', null), (e: SluiceError) => e.code === 'SLUG_INVALID' && e.exitCode === 2);
  });
});
