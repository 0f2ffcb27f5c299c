import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordedRequirement, recordSteps, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { jsonError } from '../helpers/run-cli.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';
import { evidence, gitIn, GRANT_CONFIG, readJson, writeFiles } from './lifecycle-fixture.ts';

/**
 * The holes of issue 11, each driven through the built CLI (dist/sluice.mjs as scripts/build.mjs bundles
 * it): what an agent with a shell did to sluice's records and commits, and what sluice does now.
 */
const json = (out: string) => JSON.parse(out);
const STATE = (slug: string) => `.prizmkit/state/workflows/${slug}.json`;
const JOURNAL = (slug: string) => `.prizmkit/state/journal/${slug}.jsonl`;
const REVIEW_REPORT = '.prizmkit/specs/feat/review-report.md';
const OWNER = 'prizmkit-workflow';
const headCount = (root: string) => gitIn(root, 'rev-list', '--count', 'HEAD').trim();

/** `sluice lifecycle ARGS --json` in `root`, through the built CLI. */
const lifecycle = (root: string, ...args: string[]) => runSluice(root, ['lifecycle', ...args, '--json']);
/** The error of a `lifecycle ARGS` that must exit `exit` with `{ ok: false }`. */
const refusal = async (root: string, exit: number, ...args: string[]) => jsonError(await lifecycle(root, ...args), exit);
/** A review report with verdict PASS and no findings, under `title`, ending with `tail`. */
const passingReview = (title: string, tail = '') => ({ [REVIEW_REPORT]: `# ${title}\n\n## Final Result\n\n- Verdict: PASS\n- Minor: 0\n- Total: 0\n${tail}` });

/** Requirement feat recorded through its retrospective, with a commit request for src/feat.js: one `record commit` from done. */
async function readyToCommit(files: Record<string, string> = {}) {
  const { root } = await recordedRequirement('feat', throughRetrospective('feat'), { files });
  await writeFiles(root, evidence.commitRequest('feat', ['src/feat.js']));
  return root;
}

describe('evidence that cannot go stale (CLI)', () => {
  it('record commit refuses code edited after review and test: routed back to code review, nothing committed', async () => {
    // The committed project grant made the old code commit; it authorizes nothing now, and staleness is checked first.
    const root = await readyToCommit({ 'sluice.config.yaml': GRANT_CONFIG });
    await writeFiles(root, { 'src/feat.js': 'export const x = "edited after review and test";\n' });
    assert.equal(json((await lifecycle(root, 'next', 'feat')).stdout).freshness, 'stale');
    const commit = await refusal(root, 1, 'record', 'feat', 'commit');
    assert.equal(commit.code, 'EVIDENCE_STALE');
    assert.match(commit.message, /src\/feat\.js changed after the last recorded review and test; routed back to code-review, nothing committed/);
    assert.equal(headCount(root), '1');
    const status = json((await lifecycle(root, 'status', 'feat')).stdout).requirements[0];
    assert.equal(status.nextStage, 'code-review');
    assert.deepEqual(status.completedStages, ['plan', 'implement']);
  });

  it('a review report edited after it was recorded contradicts the recorded review: routed back before any commit', async () => {
    const root = await readyToCommit();
    await writeFiles(root, passingReview('Review', '<!-- touched -->\n'));
    const commit = await refusal(root, 1, 'record', 'feat', 'commit');
    assert.equal(commit.code, 'EVIDENCE_STALE');
    assert.match(commit.message, /review-report\.md changed after code-review was recorded/);
  });

  it('an unchanged round-0 review PASS is refused in a repair round (EVIDENCE_STALE); a new review is accepted', async () => {
    const { root } = await recordedRequirement('feat', [
      ...throughRetrospective('feat').slice(0, 3),
      [evidence.test('feat', 'TEST_FAIL', 'production'), 'test'],
      [evidence.implement('feat', 'export const x = 2; // the repair\n'), 'implement'],
    ]);
    const stale = await refusal(root, 1, 'record', 'feat', 'code-review');
    assert.equal(stale.code, 'EVIDENCE_STALE');
    assert.match(stale.message, /review-report\.md is byte-identical to the evidence recorded at .* before the test-repair reroute/);
    await writeFiles(root, passingReview('Review (round 2)'));
    const fresh = await lifecycle(root, 'record', 'feat', 'code-review');
    assert.equal(fresh.code, 0, fresh.stdout);
    assert.equal(json(fresh.stdout).status, 'REVIEW_PASS');
  });
});

describe('records the agent cannot quietly rewrite (CLI)', () => {
  /** A requirement owned by OWNER, blocked after 3 outer repair rounds. */
  async function blockedAtRoundLimit() {
    const { root, lc } = await recordedRequirement('feat', [[evidence.plan('feat'), 'plan']], { orchestrator: OWNER });
    for (let round = 0; round <= 3; round++) {
      await recordSteps(
        root,
        lc,
        'feat',
        [
          [evidence.implement('feat', `export const x = ${round};\n`), 'implement'],
          [passingReview(`Review ${round}`), 'code-review'],
          [
            { '.prizmkit/specs/feat/verdict.json': JSON.stringify({ verdict: 'TEST_FAIL', repair_scope: 'runtime', failures: [{ test: `t${round}` }] }) },
            'test',
          ],
        ],
        OWNER,
      );
    }
    return { root, lc };
  }

  it('deleting the state file and running recover keeps repair_round, the block and the owner (from the journal)', async () => {
    const { root } = await blockedAtRoundLimit();
    const before = await readJson(root, STATE('feat'));
    assert.equal(before.status, 'WORKFLOW_BLOCKED');
    assert.equal(before.repair_round, 3);
    await rm(join(root, STATE('feat')));
    const stolen = await refusal(root, 1, 'recover', 'feat', '--orchestrator', 'agent');
    assert.equal(stolen.code, 'ORCHESTRATOR_MISMATCH');
    const plain = await refusal(root, 1, 'recover', 'feat');
    assert.equal(plain.code, 'ORCHESTRATOR_MISMATCH', 'a direct call does not take the requirement either');
    const r = await lifecycle(root, 'recover', 'feat', '--orchestrator', OWNER);
    assert.equal(r.code, 1, r.stdout);
    const after = json(r.stdout);
    assert.equal(after.status, 'WORKFLOW_BLOCKED');
    assert.equal(after.repairRound, 3);
    assert.equal(after.orchestrator, OWNER);
    assert.equal(after.blocker.rule, 'repair-round-limit');
  });

  it('lifting a round-limit block needs the authority of a commit: the owner alone cannot, even after changing code', async () => {
    const { root } = await blockedAtRoundLimit();
    await writeFiles(root, { 'src/feat.js': 'export const x = "someone fixed it";\n' });
    const unblock = await refusal(root, 1, 'record', 'feat', 'unblock', '--resolution', 'fixed it myself', '--orchestrator', OWNER);
    assert.equal(unblock.code, 'COMMIT_NOT_AUTHORIZED');
    assert.match(unblock.message, /unblock for feat is not authorized/);
    assert.equal((await readJson(root, STATE('feat'))).status, 'WORKFLOW_BLOCKED');
  });

  it('an edited state file is STATE_TAMPERED (exit 2) for status, next and record, and nothing is written', async () => {
    const { root } = await blockedAtRoundLimit();
    const path = join(root, STATE('feat'));
    const state = await readJson(root, STATE('feat'));
    const forged = `${JSON.stringify({ ...state, repair_round: 0, status: 'TEST_FAIL', blocker: null, next_stage: 'implement' }, null, 2)}\n`;
    await writeFile(path, forged);
    const journal = await readFile(join(root, JOURNAL('feat')), 'utf8');
    for (const args of [
      ['status', 'feat'],
      ['next', 'feat'],
      ['record', 'feat', 'implement', '--orchestrator', OWNER],
    ]) {
      const r = await lifecycle(root, ...args);
      assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}`);
      const error = jsonError(r, 2);
      assert.equal(error.code, 'STATE_TAMPERED');
      assert.match(error.message, /repair_round is 0 in the file, 3 in the journal/);
    }
    assert.equal(await readFile(path, 'utf8'), forged, 'the forged file is left for a person to see');
    assert.equal(await readFile(join(root, JOURNAL('feat')), 'utf8'), journal);
    // All requirements at once: the tampered one is shown with its error, the command exits 2.
    const all = await runSluice(root, ['lifecycle', 'status']);
    assert.equal(all.code, 2);
    assert.match(all.stdout, /feat\s+STATE_TAMPERED/);
  });

  it('an edited, removed or deleted journal is STATE_TAMPERED', async () => {
    const { root } = await recordedRequirement('feat', throughRetrospective('feat').slice(0, 3));
    const path = join(root, JOURNAL('feat'));
    const original = await readFile(path, 'utf8');
    const lines = original.trimEnd().split('\n');
    const edit = (n: number, f: (e: Record<string, unknown>) => void) => {
      const copy = [...lines];
      const e = JSON.parse(copy[n]);
      f(e);
      copy[n] = JSON.stringify(e);
      return `${copy.join('\n')}\n`;
    };
    const cases: [string, string, RegExp][] = [
      ['edited line', edit(1, (e) => void ((e.state as Record<string, unknown>).review_round = 5)), /line 2 was changed after it was written/],
      ['removed line', `${[lines[0], ...lines.slice(2)].join('\n')}\n`, /line 2 has sequence 3, expected 2/],
      ['truncated', `${lines.slice(0, -1).join('\n')}\n`, /the journal has 3 entries, but this machine anchored it at entry 4/],
    ];
    for (const [what, text, message] of cases) {
      await writeFile(path, text);
      const r = await lifecycle(root, 'status', 'feat');
      assert.equal(r.code, 2, `${what}: ${r.stdout}`);
      const error = jsonError(r, 2);
      assert.equal(error.code, what === 'truncated' ? 'JOURNAL_ROLLED_BACK' : 'STATE_TAMPERED', what);
      assert.match(error.message, message, what);
    }
    await rm(path);
    const gone = await refusal(root, 2, 'status', 'feat');
    assert.equal(gone.code, 'JOURNAL_ROLLED_BACK');
    assert.match(gone.message, /the journal is missing, but this machine anchored it at entry 4/);
  });
});

describe('commits only sluice made (CLI)', () => {
  it("a trailer commit the agent made while review said NEEDS_FIXES is never taken as the requirement's commit", async () => {
    const { root } = await recordedRequirement('feat', [...throughRetrospective('feat').slice(0, 2), [evidence.review('feat', 'NEEDS_FIXES'), 'code-review']]);
    gitIn(root, 'add', '-A');
    gitIn(root, 'commit', '-q', '-m', 'feat: done, trust me', '--trailer', 'Lifecycle-Requirement: feat');
    // On this machine deleting state and journal is a rollback recover refuses; on another (no anchor) recover rebuilds.
    const otherMachine = { XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'sluice-other-machine-')) };
    for (const removed of [[], [STATE('feat'), JOURNAL('feat')]]) {
      for (const f of removed) await rm(join(root, f));
      if (removed.length > 0) assert.equal((await refusal(root, 2, 'recover', 'feat')).code, 'JOURNAL_ROLLED_BACK');
      const r = await runSluice(root, ['lifecycle', 'recover', 'feat', '--json'], removed.length > 0 ? otherMachine : {});
      assert.equal(r.code, 1, r.stdout);
      const out = json(r.stdout);
      assert.notEqual(out.status, 'COMMITTED');
      assert.equal(out.commit, null);
      assert.equal(out.unrecognizedCommit, gitIn(root, 'rev-parse', 'HEAD').trim());
      assert.match(out.steps[5].finding, /COMMIT_UNRECOGNIZED/);
    }
  });

  it('a commit request with a secret-looking path is refused without a person typing its name', async () => {
    const { root, lc } = await recordedRequirement('feat');
    await writeFiles(root, { 'config/.env.production': 'DB_PASSWORD=hunter2\n' });
    await recordSteps(root, lc, 'feat', throughRetrospective('feat'));
    await writeFiles(root, evidence.commitRequest('feat', ['src/feat.js', 'config']));
    const refused = await refusal(root, 1, 'record', 'feat', 'commit');
    assert.equal(refused.code, 'SECRET_PATH_REFUSED');
    assert.match(refused.message, /config\/\.env\.production looks like a secret/);
    assert.equal(headCount(root), '1');
  });
});
