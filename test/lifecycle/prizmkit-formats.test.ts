import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'node:test';
import { SluiceError } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { readCommitRequest } from '../../plugins/lifecycle/readers/commit-request-reader.ts';
import { readPlanReady } from '../../plugins/lifecycle/readers/plan-tasks-reader.ts';
import { readRetrospective } from '../../plugins/lifecycle/readers/retrospective-reader.ts';
import { parseReviewReport } from '../../plugins/lifecycle/readers/review-report-reader.ts';
import { readTestEvidence } from '../../plugins/lifecycle/readers/test-verdict-reader.ts';
import { gitIn, makeRepo, writeFiles } from './lifecycle-fixture.ts';
import {
  buildV1Evidence,
  codeBlockAfter,
  hashedV1Package,
  prizmkitValidates,
  referenceText,
  renderReview,
  reviewEvents,
  skipUnlessPrizmkit,
  testReportMd,
  testResultJson,
  VERSIONS,
} from './prizmkit-reference.ts';

const host = createNodeHost();
const DIR = '.prizmkit/specs/demo';

async function rejects(p: Promise<unknown>, code: string, file: string, field: string | RegExp | undefined, message: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof SluiceError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.file, file, e.message);
    if (typeof field === 'string') assert.equal(e.field, field, e.message);
    if (field instanceof RegExp) assert.match(e.field ?? '', field, e.message);
    assert.match(e.message, message);
    assert.ok(!e.message.includes('\n'), 'one line');
    return true;
  });
}

async function scratch(files: Record<string, string> = {}): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-prizmkit-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  return root;
}

/** A review report written by the version's own renderer (once per kind: python is slow to start). */
const renderedCache = new Map<string, Promise<string>>();
function rendered(version: (typeof VERSIONS)[number], verdict: 'PASS' | 'NEEDS_FIXES', rounds = 2): Promise<string> {
  const key = `${version}/${verdict}/${rounds}`;
  if (!renderedCache.has(key)) {
    renderedCache.set(
      key,
      (async () => {
        const file = join(await scratch(), 'review-report.md');
        renderReview(version, file, reviewEvents(version, verdict, rounds));
        return readFile(file, 'utf8');
      })(),
    );
  }
  return renderedCache.get(key)!;
}
const REPORT = `${DIR}/review-report.md`;

/** Reports render_review_report.py wrote (committed as data, so these run without the reference too). */
const FIXTURES = fileURLToPath(new URL('../fixtures/prizmkit/', import.meta.url));
describe('review-report.md fixtures rendered by PrizmKit v1–v4', () => {
  const formats = { v1: 'prizmkit-v1', v2: 'prizmkit-v2', v3: 'prizmkit-v2', v4: 'prizmkit-v4' } as const;
  for (const version of VERSIONS) {
    it(`${version}: reads PASS (2 rounds) and NEEDS_FIXES (3 rounds) as ${formats[version]}`, async () => {
      const pass = await parseReviewReport(await readFile(join(FIXTURES, version, 'review-report-pass.md'), 'utf8'), REPORT);
      assert.deepEqual([pass.verdict, pass.format, 'main_review_rounds' in pass && pass.main_review_rounds], ['PASS', formats[version], 2]);
      const fixes = await parseReviewReport(await readFile(join(FIXTURES, version, 'review-report-needs-fixes.md'), 'utf8'), REPORT);
      assert.deepEqual([fixes.verdict, 'main_review_rounds' in fixes && fixes.main_review_rounds], ['NEEDS_FIXES', 3]);
    });
  }
  it('are what the reference renderer writes today (regenerated and compared)', { skip: skipUnlessPrizmkit }, async () => {
    for (const version of VERSIONS) {
      assert.equal(await rendered(version, 'PASS'), await readFile(join(FIXTURES, version, 'review-report-pass.md'), 'utf8'), version);
      assert.equal(await rendered(version, 'NEEDS_FIXES', 3), await readFile(join(FIXTURES, version, 'review-report-needs-fixes.md'), 'utf8'), version);
    }
  });
});

describe('review-report.md as render_review_report.py writes it', { skip: skipUnlessPrizmkit }, () => {
  const expected = { v1: 'prizmkit-v1', v2: 'prizmkit-v2', v3: 'prizmkit-v2', v4: 'prizmkit-v4' } as const;
  for (const version of VERSIONS) {
    it(`${version}: PASS and NEEDS_FIXES, recognised as ${expected[version]}`, async () => {
      const pass = await parseReviewReport(await rendered(version, 'PASS'), REPORT);
      assert.equal(pass.verdict, 'PASS');
      assert.equal(pass.format, expected[version]);
      assert.equal('main_review_rounds' in pass && pass.main_review_rounds, 2);
      const fixes = await parseReviewReport(await rendered(version, 'NEEDS_FIXES', 3), REPORT);
      assert.equal(fixes.verdict, 'NEEDS_FIXES');
    });
  }
  const broken: [string, (text: string) => string, string, RegExp][] = [
    ['an IN_PROGRESS execution (no Final Result yet)', (t) => t.slice(0, t.indexOf('## Final Result')), 'Final Result', /IN_PROGRESS/],
    ['content after the Final Result', (t) => `${t}## Notes\n\nLooks good to me.\n`, 'Final Result', /comes after the Final Result/],
    ['a paragraph inside the Final Result after its list', (t) => `${t}Also: PASS\n`, 'Final Result', /nothing may follow/],
    [
      'PASS with an unresolved finding',
      (t) => t.replace('- Unresolved Findings: 0', '- Unresolved Findings: 1'),
      'verdict',
      /PASS needs every accepted finding fixed/,
    ],
    [
      'more fixed than accepted findings',
      (t) => t.replace(/- Fixed Findings: 1\n(?=- Rejected Findings)/, '- Fixed Findings: 5\n'),
      'fixed_findings',
      /exceeds Accepted/,
    ],
    ['Main Review Rounds above 10', (t) => t.replace('- Main Review Rounds: 2', '- Main Review Rounds: 11'), 'main_review_rounds', /1 to 10/],
    [
      'a round count the rounds do not show',
      (t) => t.replace('- Main Review Rounds: 2', '- Main Review Rounds: 3'),
      'Main Review Rounds',
      /says 3 rounds, the report records 2/,
    ],
    ['round counts that do not add up', (t) => t.replace('- Findings: 1', '- Findings: 4'), 'Main Review Round 1', /must equal Findings/],
    ['the Final Result twice', (t) => `${t}## Final Result\n\n- Verdict: PASS\n`, 'Final Result', /2 Final Result sections/],
    ['a missing Summary', (t) => t.replace(/- Summary: .*\n/, ''), 'Summary', /no "Summary" line/],
    [
      'a new execution started after an old PASS',
      (t) =>
        `${t}# Review Report\n\n## Status: IN_PROGRESS\n\n## Main Review Round 1\n\n- Status: COMPLETED\n- Findings: 0\n- Accepted: 0\n- Rejected: 0\n- Unresolved: 0\n- Next: Finalize\n`,
      'Final Result',
      /IN_PROGRESS/,
    ],
  ];
  for (const [what, edit, field, message] of broken) {
    it(`refuses ${what}, naming file and field`, async () => {
      await rejects(parseReviewReport(edit(await rendered('v4', 'PASS')), REPORT), 'ARTIFACT_INVALID', REPORT, field, message);
    });
  }
});

describe('test-result.json + test-report.md (v2–v4)', { skip: skipUnlessPrizmkit }, () => {
  const setup = (version: 'v2' | 'v3' | 'v4', json: Record<string, unknown>, report?: string) =>
    scratch({ [`${DIR}/test-result.json`]: JSON.stringify(json, null, 2), ...(report === undefined ? {} : { [`${DIR}/test-report.md`]: report }) });
  for (const version of ['v2', 'v3', 'v4'] as const) {
    const format = version === 'v4' ? 'prizmkit-v4' : 'prizmkit-v2';
    it(`${version}: an agreeing pair passes (${format}); production_changed=true re-enters code review`, async () => {
      const pass = await readTestEvidence(host, await setup(version, testResultJson(version, 'TEST_PASS'), testReportMd(version, 'TEST_PASS')), DIR);
      assert.deepEqual(
        [pass.verdict, pass.format, pass.artifacts.map((a) => a.file)],
        ['TEST_PASS', format, [`${DIR}/test-result.json`, `${DIR}/test-report.md`]],
      );
      assert.match(pass.artifacts[0].sha256, /^[0-9a-f]{64}$/);
      const changed = await readTestEvidence(
        host,
        await setup(
          version,
          testResultJson(version, 'TEST_PASS', { productionChanged: true }),
          testReportMd(version, 'TEST_PASS', { productionChanged: true }),
        ),
        DIR,
      );
      assert.equal(changed.verdict, 'TEST_PASS_PRODUCTION_CHANGED');
      const fixes = { unresolved: ['parser rejects empty input'] };
      const nf = await readTestEvidence(
        host,
        await setup(version, testResultJson(version, 'TEST_NEEDS_FIXES', fixes), testReportMd(version, 'TEST_NEEDS_FIXES', fixes)),
        DIR,
      );
      assert.deepEqual([nf.verdict, nf.repairScope, nf.failureCount], ['TEST_NEEDS_FIXES', 'production', 1]);
    });
    it(`${version}: refuses a report that disagrees or is missing`, async () => {
      const R = `${DIR}/test-report.md`;
      await rejects(
        readTestEvidence(host, await setup(version, testResultJson(version, 'TEST_PASS'), testReportMd(version, 'TEST_BLOCKED')), DIR),
        'ARTIFACT_INVALID',
        R,
        'Result',
        /says TEST_BLOCKED, test-result.json says TEST_PASS/,
      );
      await rejects(
        readTestEvidence(
          host,
          await setup(version, testResultJson(version, 'TEST_PASS'), testReportMd(version, 'TEST_PASS', { productionChanged: true })),
          DIR,
        ),
        'ARTIFACT_INVALID',
        R,
        'Production changed during test',
        /says yes/,
      );
      await rejects(
        readTestEvidence(host, await setup(version, testResultJson(version, 'TEST_PASS')), DIR),
        'ARTIFACT_MISSING',
        R,
        undefined,
        /must exist and agree/,
      );
      const unfilled = testReportMd(version, 'TEST_PASS').replace(/^- Production changed during test: .*$/m, '- Production changed during test: yes / no');
      await rejects(
        readTestEvidence(host, await setup(version, testResultJson(version, 'TEST_PASS'), unfilled), DIR),
        'ARTIFACT_INVALID',
        R,
        'Production changed during test',
        /must be yes or no/,
      );
    });
  }
  it('refuses TEST_PASS with unresolved items, and a v4 non-pass that lists nothing', async () => {
    const J = `${DIR}/test-result.json`;
    await rejects(
      readTestEvidence(host, await setup('v4', testResultJson('v4', 'TEST_PASS', { unresolved: ['x'] }), testReportMd('v4', 'TEST_PASS')), DIR),
      'ARTIFACT_INVALID',
      J,
      'unresolved_items',
      /TEST_PASS with unresolved items/,
    );
    await rejects(
      readTestEvidence(host, await setup('v4', testResultJson('v4', 'TEST_BLOCKED'), testReportMd('v4', 'TEST_BLOCKED')), DIR),
      'ARTIFACT_INVALID',
      J,
      'unresolved_items',
      /at least one/,
    );
  });
});

const v1Package = (root: string, verdict: 'TEST_PASS' | 'TEST_FAIL') => hashedV1Package(root, verdict, 'src/app.js', DIR).dir;

describe('v1 verdict.json in its evidence package', { skip: skipUnlessPrizmkit }, () => {
  const repo = async () => {
    const root = await makeRepo({ 'src/app.js': 'export const a = 1;\n' });
    await writeFiles(root, { 'src/app.js': 'export const a = 2;\n' });
    return root;
  };
  it('reads a package bound to HEAD and the current diff; TEST_FAIL takes the conservative route', async () => {
    const root = await repo();
    const dir = v1Package(root, 'TEST_PASS');
    const t = await readTestEvidence(host, root, DIR);
    assert.deepEqual([t.verdict, t.format, t.file], ['TEST_PASS', 'prizmkit-v1', `${dir}/verdict.json`]);
    assert.ok(t.artifacts.some((a) => a.file === `${dir}/manifest.json`));
    const failing = await repo();
    const f = await readTestEvidence(host, failing, (v1Package(failing, 'TEST_FAIL'), DIR));
    assert.deepEqual([f.verdict, f.repairScope, f.failureCount], ['TEST_FAIL', 'unknown', 1]);
  });
  it('refuses a pass once the code changed or HEAD moved, and a tampered package', async () => {
    const root = await repo();
    const dir = v1Package(root, 'TEST_PASS');
    await writeFiles(root, { 'src/app.js': 'export const a = 3;\n' });
    await rejects(readTestEvidence(host, root, DIR), 'ARTIFACT_INVALID', `${dir}/manifest.json`, 'working_diff_sha256', /code changed after the test run/);
    await writeFiles(root, { 'src/app.js': 'export const a = 2;\n' });
    assert.equal((await readTestEvidence(host, root, DIR)).verdict, 'TEST_PASS');
    await writeFiles(root, { [`${dir}/raw/execution-001.stdout`]: 'tampered\n' });
    await rejects(readTestEvidence(host, root, DIR), 'ARTIFACT_INVALID', `${dir}/manifest.json`, 'files.2.sha256', /changed after it was hashed/);
    await writeFiles(root, { [`${dir}/raw/execution-001.stdout`]: 'ok\n' });
    gitIn(root, 'commit', '-qam', 'moved on');
    await rejects(readTestEvidence(host, root, DIR), 'ARTIFACT_INVALID', `${dir}/manifest.json`, 'baseline_commit', /HEAD is now/);
  });
  it("reads a package made by PrizmKit's builder and attested by its validator; both refuse it after tampering or an edit", async () => {
    const root = await makeRepo({ 'docs/guide.md': '# Guide\n' });
    await writeFiles(root, { 'docs/guide.md': '# Guide\n\nHow to run it.\n' });
    const id = buildV1Evidence(root, 'docs/guide.md');
    const dir = `.prizmkit/test/evidence/${id}`;
    assert.equal(prizmkitValidates(root, id), null);
    const t = await readTestEvidence(host, root, DIR);
    assert.deepEqual([t.verdict, t.format, t.file], ['TEST_PASS', 'prizmkit-v1', `${dir}/verdict.json`]);
    await writeFiles(root, { 'docs/guide.md': '# Guide\n\nEdited after the test.\n' });
    assert.match(prizmkitValidates(root, id) ?? '', /drift/);
    await rejects(readTestEvidence(host, root, DIR), 'ARTIFACT_INVALID', `${dir}/manifest.json`, 'working_diff_sha256', /code changed after the test run/);
    await writeFiles(root, { 'docs/guide.md': '# Guide\n\nHow to run it.\n', [`${dir}/scope.json`]: '{}' });
    assert.match(prizmkitValidates(root, id) ?? '', /hash mismatch/);
    await rejects(
      readTestEvidence(host, root, DIR),
      'ARTIFACT_INVALID',
      `${dir}/manifest.json`,
      /^files\.\d+\.sha256$/,
      /scope\.json changed after it was hashed/,
    );
  });
  it('refuses a derived report that claims another verdict', async () => {
    const root = await repo();
    v1Package(root, 'TEST_FAIL');
    const report = `${DIR}/test-report.md`;
    await writeFiles(root, { [report]: (await readFile(join(root, report), 'utf8')).replace('Verdict: TEST_FAIL', 'Verdict: TEST_PASS') });
    await rejects(readTestEvidence(host, root, DIR), 'ARTIFACT_INVALID', report, 'Verdict', /evidence package says TEST_FAIL/);
  });
});

describe('retrospective-result.json (v2–v4)', { skip: skipUnlessPrizmkit }, () => {
  const F = `${DIR}/retrospective-result.json`;
  const example = (version: 'v2' | 'v3' | 'v4', marker = 'retrospective-result.json') =>
    JSON.parse(codeBlockAfter(referenceText(version, 'prizmkit-retrospective/SKILL.md'), marker, 'json'));
  it("reads each version's own example; review/test verdicts must match what sluice recorded", async () => {
    for (const version of ['v2', 'v3'] as const) {
      const root = await scratch({ [F]: JSON.stringify(example(version)) });
      const r = await readRetrospective(host, root, DIR, { review: 'PASS', test: 'TEST_PASS' });
      assert.deepEqual([r.blocked, r.result, r.format], [false, 'DOCS_UPDATED', `prizmkit-${version}`]);
      await rejects(
        readRetrospective(host, root, DIR, { review: 'NEEDS_FIXES', test: 'TEST_PASS' }),
        'ARTIFACT_INVALID',
        F,
        'review_verdict',
        /sluice recorded NEEDS_FIXES/,
      );
    }
    const v4 = example('v4', 'exactly these seven keys');
    const root = await scratch({ [F]: JSON.stringify(v4), '.prizmkit/prizm-docs/example/module.prizm': 'doc\n' });
    assert.equal((await readRetrospective(host, root, DIR)).format, 'prizmkit-v4');
    await rejects(readRetrospective(host, await scratch({ [F]: JSON.stringify(v4) }), DIR), 'ARTIFACT_INVALID', F, 'documentation_paths.0', /does not exist/);
  });
  it('RETRO_BLOCKED (v4 outcome, v3 failed) is a block', async () => {
    const blocked = example('v4', 'A capacity or validation blocker');
    assert.equal((await readRetrospective(host, await scratch({ [F]: JSON.stringify(blocked) }), DIR)).blocked, true);
    const v3 = { ...example('v3'), status: 'failed', stage_result: 'RETRO_BLOCKED', result: null };
    assert.equal((await readRetrospective(host, await scratch({ [F]: JSON.stringify(v3) }), DIR)).blocked, true);
    await rejects(
      readRetrospective(host, await scratch({ [F]: JSON.stringify({ ...blocked, result: 'NO_DOC_CHANGE' }) }), DIR),
      'ARTIFACT_INVALID',
      F,
      'result',
      /RETRO_BLOCKED has result null/,
    );
  });
});

describe('v4 plans and runtime commit requests', { skip: skipUnlessPrizmkit }, () => {
  const template = () => referenceText('v4', 'prizmkit-plan/assets/plan-template.md');
  const plan = (unresolved: string) => template().replace('- Unresolved Corrections: <none for PLAN_READY>', `- Unresolved Corrections: ${unresolved}`);
  it('PLAN_READY with no unresolved corrections; PLAN_BLOCKED with corrections or a [NEEDS CLARIFICATION] left', async () => {
    const ready = await readPlanReady(
      host,
      await scratch({ [`${DIR}/spec.md`]: '# Spec\n\nGoal.\n', [`${DIR}/plan.md`]: plan('None (both corrections adjudicated)') }),
      DIR,
    );
    assert.equal(ready.blocked, undefined, 'the template names the marker only in backticks');
    assert.ok(
      ready.tasks.some((t) => t.id === 'CP-FINAL'),
      'checkpoints are tasks',
    );
    const corrections = await readPlanReady(host, await scratch({ [`${DIR}/spec.md`]: '# Spec\n', [`${DIR}/plan.md`]: plan('2') }), DIR);
    assert.match(corrections.blocked ?? '', /Unresolved Corrections is "2"/);
    const unclear = await readPlanReady(
      host,
      await scratch({ [`${DIR}/spec.md`]: '# Spec\n\n- [NEEDS CLARIFICATION] which currency?\n', [`${DIR}/plan.md`]: plan('none') }),
      DIR,
    );
    assert.match(unclear.blocked ?? '', /spec\.md still has a \[NEEDS CLARIFICATION\] marker/);
  });
  it('runtime-commit-request.json: read while HEAD is base_head, refused once HEAD moved', async () => {
    const root = await makeRepo({ 'src/app.js': '1\n' });
    const F = `${DIR}/runtime-commit-request.json`;
    const example = JSON.parse(codeBlockAfter(referenceText('v4', 'prizmkit-committer/SKILL.md'), 'Write this JSON atomically', 'json'));
    const request = { ...example, artifact_dir: DIR, base_head: gitIn(root, 'rev-parse', 'HEAD').trim(), intended_paths: ['src/app.js'] };
    await writeFiles(root, { [F]: JSON.stringify(request), 'src/app.js': '2\n' });
    const r = await readCommitRequest(host, root, DIR);
    assert.deepEqual([r.message, r.paths, r.format], [example.commit_message, ['src/app.js'], 'prizmkit-v4']);
    await writeFiles(root, { [F]: JSON.stringify({ ...request, artifact_dir: '.prizmkit/specs/other' }) });
    await rejects(readCommitRequest(host, root, DIR), 'ARTIFACT_INVALID', F, 'artifact_dir', /this requirement's is/);
    await writeFiles(root, { [F]: JSON.stringify(request) });
    gitIn(root, 'commit', '-qam', 'someone else');
    await rejects(readCommitRequest(host, root, DIR), 'ARTIFACT_INVALID', F, 'base_head', /HEAD is now/);
  });
});
