import assert from 'node:assert/strict';
import { readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { forgetAnchor } from '../helpers/forget-anchor.ts';
import { describe, it } from 'node:test';
import { bwrapMissing, runCliOnTerminal, runCliWithAccountConfig, scriptMissing } from '../helpers/cli-on-terminal.ts';
import type { CliRun } from '../helpers/run-cli.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';
import { evidence, gitIn, GRANT_CONFIG, makeRepo, readJson, writeFiles } from './lifecycle-fixture.ts';
import {
  documentedBy,
  hashedV1Package,
  referenceText,
  renderReview,
  retroExample,
  reviewEvents,
  seedExample,
  skipUnlessPrizmkit,
  testReportMd,
  testResultJson,
  type Version,
} from './prizmkit-reference.ts';

/**
 * Issue 25, lifecycle: a state file without sluice's journal (PrizmKit's own, or one an agent wrote after
 * deleting sluice's records) only claims its stages. Each case runs the built CLI on artifacts PrizmKit's
 * own renderer and templates wrote; each ended in a commit (or a wrong route) before.
 */
const SLUG = 'calc';
const DIR = `.prizmkit/specs/${SLUG}`;
const STATE = `.prizmkit/state/workflows/${SLUG}.json`;
const JOURNAL = `.prizmkit/state/journal/${SLUG}.jsonl`;
const OWNER = 'prizmkit-workflow';
const json = (r: CliRun) => JSON.parse(r.stdout);
const lifecycle = (root: string, ...args: string[]) => runSluice(root, ['lifecycle', ...args, '--json']);
const commits = (root: string) => gitIn(root, 'rev-list', '--count', 'HEAD').trim();
const status = async (root: string) => json(await lifecycle(root, 'status', SLUG)).requirements[0];

async function ok(root: string, ...args: string[]): Promise<Record<string, unknown>> {
  const r = await lifecycle(root, ...args);
  assert.equal(r.code, 0, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
  return json(r);
}

/** A project whose calc.js is changed and planned for, started by sluice (owned by OWNER). */
async function planned(): Promise<string> {
  const root = await makeRepo({ 'src/calc.js': 'export const add = (a, b) => a - b;\n' });
  await ok(root, 'start', SLUG, '--orchestrator', OWNER);
  await writeFiles(root, { [`${DIR}/spec.md`]: '# calc\n\n## Goal\n\nadd adds.\n', [`${DIR}/plan.md`]: '# Plan\n\n- [ ] [T-001] fix add\n' });
  await ok(root, 'record', SLUG, 'plan', '--orchestrator', OWNER);
  await writeFiles(root, { 'src/calc.js': 'export const add = (a, b) => a + b;\n', [`${DIR}/plan.md`]: '# Plan\n\n- [x] [T-001] fix add\n' });
  await ok(root, 'record', SLUG, 'implement', '--orchestrator', OWNER);
  return root;
}

/** Review and test artifacts of `version` as its renderer and templates write them, with `verdict` for the review. */
function reviewed(root: string, version: Version, verdict: 'PASS' | 'NEEDS_FIXES'): void {
  renderReview(version, join(root, DIR, 'review-report.md'), reviewEvents(version, verdict));
}

function tested(version: Exclude<Version, 'v1'>): Record<string, string> {
  return { [`${DIR}/test-result.json`]: JSON.stringify(testResultJson(version, 'TEST_PASS')), [`${DIR}/test-report.md`]: testReportMd(version, 'TEST_PASS') };
}

/** The two ways a commit is authorized: a person typing `y` at a terminal, or the grant in the user's own config. */
const AUTHORITIES: [string, (root: string, args: string[]) => Promise<CliRun>, string | false][] = [
  ['at a terminal after y', (root, args) => runCliOnTerminal(root, args, 'y\n'), scriptMissing],
  ['headless with the user-config grant', (root, args) => runCliWithAccountConfig(root, args, { 'config.yaml': GRANT_CONFIG }), bwrapMissing],
];

describe('adopting a state without journal trusts nothing it claims (CLI)', { skip: skipUnlessPrizmkit }, () => {
  for (const [authority, commit, missing] of AUTHORITIES) {
    it(`the protocol's own example state written over a NEEDS_FIXES review never reaches a commit, ${authority}`, { skip: missing }, async () => {
      const root = await planned();
      reviewed(root, 'v2', 'NEEDS_FIXES');
      assert.equal((await ok(root, 'record', SLUG, 'code-review', '--orchestrator', OWNER)).status, 'REVIEW_NEEDS_FIXES');
      // The agent deletes sluice's records and writes the seed's example state: TEST_PASS, next retrospective.
      await rm(join(root, JOURNAL));
      await rm(join(root, STATE));
      await writeFiles(root, { [STATE]: JSON.stringify(seedExample(DIR)) });
      // On the machine that anchored the journal that is a rollback; adoption is for records never anchored here (a fresh clone).
      assert.equal(json(await lifecycle(root, 'status', SLUG)).error.code, 'JOURNAL_ROLLED_BACK');
      await forgetAnchor(join(root, JOURNAL));
      // ... and goes on as if the claim held: a retrospective, a commit request, the commit.
      await writeFiles(root, { [`${DIR}/retrospective-result.json`]: JSON.stringify(retroExample('v2')), ...evidence.commitRequest(SLUG, ['src/calc.js']) });
      const retro = await lifecycle(root, 'record', SLUG, 'retrospective', '--orchestrator', OWNER);
      const committed = await commit(root, ['lifecycle', 'record', SLUG, 'commit', '--orchestrator', OWNER]);
      assert.equal(commits(root), '1', `nothing was committed: ${committed.stdout}${committed.stderr}`);
      assert.equal(committed.code, 1, committed.stdout + committed.stderr);
      assert.match(committed.stdout + committed.stderr, /got commit, the next stage is code-review/);
      assert.equal(retro.code, 1, retro.stdout);
      assert.match(json(retro).error.message, /got retrospective, the next stage is code-review/);
      // Every claim was read again: plan and implement hold, the review does not.
      const shown = await status(root);
      assert.deepEqual([shown.status, shown.nextStage, shown.completedStages], ['IMPLEMENTED', 'code-review', ['plan', 'implement']]);
      // The way on is the honest one: the review is read again and still needs fixes.
      const review = await ok(root, 'record', SLUG, 'code-review', '--orchestrator', OWNER);
      assert.deepEqual([review.status, review.nextStage], ['REVIEW_NEEDS_FIXES', 'implement']);
    });
  }

  it('a PrizmKit v1 requirement taken over at IMPLEMENT_REPAIR resumes at implement (its next_stage), not at test', { skip: bwrapMissing }, async () => {
    const root = await makeRepo({ 'src/calc.js': 'export const add = (a, b) => a - b;\n' });
    await writeFiles(root, {
      'src/calc.js': 'export const add = (a, b) => a + b;\n',
      [`${DIR}/spec.md`]: '# calc\n\nadd adds.\n',
      [`${DIR}/plan.md`]: '# Plan\n\n- [x] [T-001] fix add\n',
    });
    reviewed(root, 'v1', 'NEEDS_FIXES');
    // v1: code review said NEEDS_FIXES, the implement skill took the repair (IMPLEMENT_REPAIR, next implement).
    const v1 = {
      schema_version: 1,
      artifact_dir: DIR,
      stage: 'implement',
      status: 'IMPLEMENT_REPAIR',
      completed_stages: ['plan', 'implement', 'code-review'],
      repair_round: 1,
      repair_scope: 'production',
      next_stage: 'implement',
      resume_from: 'prizmkit-implement',
    };
    await writeFiles(root, { [STATE]: JSON.stringify(v1) });
    // Tests made with PrizmKit's hashing pass on this diff; a retrospective and a commit request follow.
    hashedV1Package(root, 'TEST_PASS', 'src/calc.js', DIR);
    await writeFiles(root, {
      [`${DIR}/retrospective-result.json`]: JSON.stringify({ result: 'NO_DOC_CHANGE' }),
      ...evidence.commitRequest(SLUG, ['src/calc.js']),
    });
    const test = await lifecycle(root, 'record', SLUG, 'test');
    await lifecycle(root, 'record', SLUG, 'retrospective');
    const commit = await runCliWithAccountConfig(root, ['lifecycle', 'record', SLUG, 'commit'], { 'config.yaml': GRANT_CONFIG });
    assert.equal(commits(root), '1', `the review still needs fixes, nothing may be committed: ${commit.stdout}${commit.stderr}`);
    assert.equal(commit.code, 1, commit.stdout + commit.stderr);
    assert.equal(test.code, 1, test.stdout);
    assert.match(json(test).error.message, /got test, the next stage is implement/);
    const shown = await status(root);
    assert.deepEqual(
      [shown.status, shown.nextStage, shown.completedStages, shown.repairRound, shown.repairScope],
      ['REVIEW_NEEDS_FIXES', 'implement', ['plan'], 1, 'production'],
    );
    // The repair goes the v1 route: implement, then the same review report is read again (still NEEDS_FIXES).
    await writeFiles(root, { 'src/calc.js': 'export const add = (a, b) => a + b; // repaired\n' });
    assert.equal((await ok(root, 'record', SLUG, 'implement')).nextStage, 'code-review');
    const again = await ok(root, 'record', SLUG, 'code-review');
    assert.deepEqual([again.status, again.repairRound], ['REVIEW_NEEDS_FIXES', 2]);
  });

  it('a PrizmKit state claiming COMMITTED with nothing committed resumes at the commit: step 6 says why, the commit is made', {
    skip: scriptMissing,
  }, async () => {
    const root = await makeRepo({ 'src/calc.js': 'export const add = (a, b) => a - b;\n' });
    await writeFiles(root, {
      'src/calc.js': 'export const add = (a, b) => a + b;\n',
      [`${DIR}/spec.md`]: '# calc\n\nadd adds.\n',
      [`${DIR}/plan.md`]: '# Plan\n\n- [x] [T-001] fix add\n',
      ...tested('v2'),
      [`${DIR}/retrospective-result.json`]: JSON.stringify(retroExample('v2')),
      ...documentedBy(retroExample('v2')),
    });
    reviewed(root, 'v2', 'PASS');
    const claimed = {
      schema_version: 1,
      artifact_dir: DIR,
      orchestrator: null,
      stage: 'committer',
      status: 'COMMITTED',
      stage_result: null,
      completed_stages: ['plan', 'implement', 'code-review', 'test', 'retrospective', 'committer'],
      repair_scope: null,
      repair_round: 0,
      next_stage: null,
      resume_from: null,
    };
    await writeFiles(root, { [STATE]: JSON.stringify(claimed) });
    const r = await ok(root, 'recover', SLUG);
    const steps = r.steps as { finding: string }[];
    assert.match(steps[5].finding, /claims the requirement was committed, but names no commit sluice made/);
    assert.deepEqual([r.status, r.nextStage], ['RETRO_COMPLETE', 'commit']);
    assert.match(steps[8].finding, /at commit/);
    await writeFiles(root, evidence.commitRequest(SLUG, ['src/calc.js']));
    const commit = await runCliOnTerminal(root, ['lifecycle', 'record', SLUG, 'commit'], 'y\n');
    assert.equal(commit.code, 0, commit.stdout);
    assert.equal(commits(root), '2');
    const done = await status(root);
    assert.deepEqual([done.status, done.commit], ['COMMITTED', gitIn(root, 'rev-parse', 'HEAD').trim()]);
  });
});

describe('PrizmKit v4 read as v4 means it (CLI)', { skip: skipUnlessPrizmkit }, () => {
  /** v4's own plan template with every task ticked and its Independent Plan Review filled in; checkpoints as `cp`. */
  const v4Plan = (cp: ' ' | 'x') =>
    referenceText('v4', 'prizmkit-plan/assets/plan-template.md')
      .replace(/^- \[ \] \[T-/gm, '- [x] [T-')
      .replace(/^- \[ \] \[CP-/gm, `- [${cp}] [CP-`)
      .replace(/^(- [A-Za-z ]+): <([^>|]+?)(?: \| [^>]*)?>$/gm, (_, key: string, first: string) => `${key}: ${first.trim()}`)
      .replace('- Unresolved Corrections: none for PLAN_READY', '- Unresolved Corrections: none');

  it("implement is not held back by the plan's checkpoint boxes (v4's implement marks tasks; review verifies checkpoints)", async () => {
    const root = await makeRepo({ 'src/calc.js': 'export const add = (a, b) => a - b;\n' });
    await ok(root, 'start', SLUG);
    await writeFiles(root, { [`${DIR}/spec.md`]: '# calc\n\nadd adds.\n', [`${DIR}/plan.md`]: v4Plan(' ').replace(/^- \[x\] \[T-/gm, '- [ ] [T-') });
    assert.equal((await ok(root, 'record', SLUG, 'plan')).status, 'PLAN_READY');
    await writeFiles(root, { 'src/calc.js': 'export const add = (a, b) => a + b;\n', [`${DIR}/plan.md`]: v4Plan(' ') });
    const impl = await ok(root, 'record', SLUG, 'implement');
    assert.deepEqual([impl.status, impl.nextStage], ['IMPLEMENTED', 'code-review']);
    // An open task still holds it back.
    const other = await makeRepo();
    await ok(other, 'start', SLUG);
    await writeFiles(other, { [`${DIR}/spec.md`]: '# calc\n', [`${DIR}/plan.md`]: v4Plan(' ').replace('- [x] [T-900]', '- [ ] [T-900]') });
    await ok(other, 'record', SLUG, 'plan');
    const open = await lifecycle(other, 'record', SLUG, 'implement');
    assert.equal(open.code, 1, open.stdout);
    assert.match(json(open).error.message, /task T-900 not checked yet/);
  });

  it('an adopted v4 state is written back naming the commit stage `committer`, as v4 does', async () => {
    const root = await makeRepo({ 'src/calc.js': 'export const add = (a, b) => a - b;\n' });
    await writeFiles(root, {
      'src/calc.js': 'export const add = (a, b) => a + b;\n',
      [`${DIR}/spec.md`]: '# calc\n\nadd adds.\n',
      [`${DIR}/plan.md`]: v4Plan('x'),
      ...tested('v4'),
    });
    reviewed(root, 'v4', 'PASS');
    const v4 = JSON.parse(
      referenceText('v4', 'prizmkit-workflow/references/workflow-state-protocol.md').split('## Schema')[1].split('```json\n')[1].split('\n```')[0],
    );
    await writeFiles(root, { [STATE]: JSON.stringify({ ...v4, artifact_dir: DIR }) });
    await writeFiles(root, { [`${DIR}/retrospective-result.json`]: JSON.stringify(retroExample('v4')), ...documentedBy(retroExample('v4')) });
    const retro = await ok(root, 'record', SLUG, 'retrospective', '--orchestrator', OWNER);
    assert.equal(retro.nextStage, 'commit');
    const file = await readJson(root, STATE);
    assert.deepEqual([file.next_stage, file.resume_from], ['committer', 'prizmkit-committer']);
    assert.ok(!JSON.stringify(file.completed_stages).includes('"commit"'));
  });

  it('a v4 `in_progress` state shows as in progress, not as a new requirement', async () => {
    const root = await makeRepo();
    await writeFiles(root, {
      [`${DIR}/spec.md`]: '# calc\n',
      [STATE]: JSON.stringify({
        schema_version: 1,
        artifact_dir: DIR,
        orchestrator: OWNER,
        stage: 'plan',
        status: 'in_progress',
        stage_result: null,
        completed_stages: [],
        repair_scope: null,
        repair_round: 0,
        next_stage: 'plan',
        resume_from: 'prizmkit-plan',
      }),
    });
    const r = await runSluice(root, ['lifecycle', 'status']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /calc\s+IN_PROGRESS\s+next plan.*\(PrizmKit: in_progress at plan\)/);
    assert.doesNotMatch(r.stdout, /NEW/);
  });

  it('the slug hint names what a v4 identity may hold, not the "." it refused', async () => {
    const r = await runSluice(await makeRepo(), ['lifecycle', 'start', 'calc.v2']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /SLUG_INVALID: .*slug "calc\.v2" contains "\."/);
    const hint = r.stderr.split('\n').find((l) => l.startsWith('hint:')) ?? '';
    assert.match(hint, /no "\."/);
    assert.doesNotMatch(hint, /\bdot\b/);
  });
});

describe('the records of an adopted state (CLI)', { skip: skipUnlessPrizmkit }, () => {
  it('the first write journals the claim and what the artifacts confirmed, each confirmed stage with its evidence', async () => {
    const root = await planned();
    reviewed(root, 'v2', 'PASS');
    await writeFiles(root, tested('v2'));
    await rm(join(root, JOURNAL));
    await rm(join(root, STATE));
    await writeFiles(root, { [STATE]: JSON.stringify(seedExample(DIR)) });
    await forgetAnchor(join(root, JOURNAL));
    await writeFiles(root, { [`${DIR}/retrospective-result.json`]: JSON.stringify({ result: 'NO_DOC_CHANGE' }) });
    const retro = await ok(root, 'record', SLUG, 'retrospective', '--orchestrator', OWNER);
    assert.equal(retro.status, 'RETRO_COMPLETE');
    const rows = (await readFile(join(root, JOURNAL), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l).row);
    assert.deepEqual(rows, ['adopt', 'adopt:re-read', 'retro-no-doc-change']);
    const state = await readJson(root, STATE);
    for (const stage of ['code-review', 'test']) assert.ok(Object.keys(state.results[stage].artifacts).length > 0, `${stage} has its artifacts' hashes`);
  });
});
