import assert from 'node:assert/strict';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { describe, it } from 'node:test';
import { SluiceError } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { readCommitRequest } from '../../plugins/lifecycle/readers/commit-request-reader.ts';
import { parsePlanTasks, readImplementedPlan, readPlanReady } from '../../plugins/lifecycle/readers/plan-tasks-reader.ts';
import { readRetrospectiveResult } from '../../plugins/lifecycle/readers/retrospective-reader.ts';
import { parseReviewReport, readReviewVerdict } from '../../plugins/lifecycle/readers/review-report-reader.ts';
import { readTestEvidence } from '../../plugins/lifecycle/readers/test-verdict-reader.ts';

const DIR = '.prizmkit/specs/demo';
const host = createNodeHost();

async function project(files: Record<string, string>): Promise<string> {
  const root = await mkdtemp(join(tmpdir(), 'sluice-readers-'));
  for (const [path, content] of Object.entries(files)) {
    await mkdir(dirname(join(root, path)), { recursive: true });
    await writeFile(join(root, path), content);
  }
  await mkdir(join(root, DIR), { recursive: true });
  return root;
}

/** Expects a SluiceError with this code, naming this file and (when given) this field. */
async function rejects(p: Promise<unknown>, code: string, file: string, field?: string | RegExp, message?: RegExp) {
  await assert.rejects(p, (e: unknown) => {
    assert.ok(e instanceof SluiceError, String(e));
    assert.equal(e.code, code, e.message);
    assert.equal(e.file, file);
    if (typeof field === 'string') assert.equal(e.field, field, e.message);
    if (field instanceof RegExp) assert.match(e.field ?? '', field, e.message);
    if (message) assert.match(e.message, message);
    return true;
  });
}

const report = (body: string) => `# Review\n\nSome findings.\n\n${body}\n`;
const REVIEW_FILE = `${DIR}/review-report.md`;

describe('review-report.md reader', () => {
  it('reads the documented list form', async () => {
    const r = await parseReviewReport(report('## Final Result\n\n- **Verdict**: NEEDS_FIXES\n- Critical: 0\n- Major: 2\n- Minor: 1\n- Total: 3'), REVIEW_FILE);
    assert.deepEqual(r, { verdict: 'NEEDS_FIXES', counts: { critical: 0, major: 2, minor: 1 }, total: 3, format: 'sluice' });
  });
  it('reads a two-column table and decorated values', async () => {
    const r = await parseReviewReport(
      report('### Final Result:\n\n| Field | Value |\n|---|---|\n| Verdict | ✅ **PASS** |\n| Critical issues | 0 |\n| Minor | `2` |\n| Total findings | 2 |'),
      REVIEW_FILE,
    );
    assert.equal(r.verdict, 'PASS');
    assert.equal(r.format === 'sluice' && r.total, 2);
  });
  it('takes the LAST Final Result section and ignores one inside a code fence', async () => {
    const text = report(
      '## Final Result\n\nVerdict: NEEDS_FIXES\nMajor: 1\nTotal: 1\n\n## Round 2\n\nFixed.\n\n## Final Result (round 2)\n\nVerdict: needs fixes\nMinor: 1\nTotal: 1\n\n```md\n## Final Result\nVerdict: PASS\nTotal: 0\n```',
    );
    const r = await parseReviewReport(text, REVIEW_FILE);
    assert.equal(r.verdict, 'NEEDS_FIXES');
    assert.deepEqual(r.format === 'sluice' && r.counts, { minor: 1 });
  });
  it('reads from the artifact folder and names the file', async () => {
    const root = await project({ [REVIEW_FILE]: report('## Final Result\n- Verdict: PASS\n- Minor: 0\n- Total: 0') });
    const r = await readReviewVerdict(host, root, DIR);
    assert.equal(r.file, REVIEW_FILE);
    assert.equal(r.verdict, 'PASS');
  });
  const bad: [string, string, string | undefined, RegExp][] = [
    ['counts that do not add up', '## Final Result\n- Verdict: NEEDS_FIXES\n- Major: 2\n- Minor: 1\n- Total: 4', 'total', /do not add up/],
    ['no Verdict line', '## Final Result\n- Major: 1\n- Total: 1', 'Verdict', /no Verdict/],
    ['an unknown verdict', '## Final Result\n- Verdict: APPROVED\n- Minor: 0\n- Total: 0', 'verdict', /PASS or NEEDS_FIXES/],
    ['PASS with a major finding', '## Final Result\n- Verdict: PASS\n- Major: 1\n- Total: 1', 'verdict', /PASS with critical/],
    ['NEEDS_FIXES without findings', '## Final Result\n- Verdict: NEEDS_FIXES\n- Minor: 0\n- Total: 0', 'verdict', /no findings/],
    ['no severity counts', '## Final Result\n- Verdict: PASS\n- Total: 0', 'counts', /severity count/],
    ['no Total', '## Final Result\n- Verdict: PASS\n- Minor: 0', 'Total', /no Total line/],
    ['a non-numeric count', '## Final Result\n- Verdict: PASS\n- Minor: none\n- Total: 0', 'minor', /must be a number/],
    ['the Verdict twice', '## Final Result\n- Verdict: PASS\n- Verdict: NEEDS_FIXES\n- Minor: 0\n- Total: 0', 'Verdict', /twice/],
    ['no Final Result section', '## Summary\n- Verdict: PASS', 'Final Result', /no "## Final Result"/],
  ];
  for (const [what, body, field, message] of bad) {
    it(`refuses ${what} (ARTIFACT_INVALID naming the field)`, async () => {
      await rejects(parseReviewReport(report(body), REVIEW_FILE), 'ARTIFACT_INVALID', REVIEW_FILE, field, message);
    });
  }
  it('a missing report is ARTIFACT_MISSING', async () => {
    await rejects(readReviewVerdict(host, await project({}), DIR), 'ARTIFACT_MISSING', REVIEW_FILE);
  });
});

describe('test verdict reader', () => {
  const V = `${DIR}/verdict.json`;
  const json = (o: unknown) => JSON.stringify(o);
  it('reads TEST_FAIL with its repair scope and failures', async () => {
    const root = await project({
      [V]: json({ verdict: 'TEST_FAIL', repair_scope: 'production', failures: [{ test: 'parses empty input' }], counts: { passed: 3, failed: 1 } }),
    });
    const v = await readTestEvidence(host, root, DIR);
    assert.equal(v.verdict, 'TEST_FAIL');
    assert.equal(v.repairScope, 'production');
    assert.equal(v.file, V);
    assert.equal(v.format, 'sluice');
  });
  it('accepts test-result.json when verdict.json is absent, and checks the evidence package', async () => {
    const root = await project({ [`${DIR}/test-result.json`]: json({ verdict: 'TEST_PASS', evidence: ['out/run.txt'] }), [`${DIR}/out/run.txt`]: 'ok' });
    assert.equal((await readTestEvidence(host, root, DIR)).verdict, 'TEST_PASS');
  });
  it('refuses a bare {"verdict":"TEST_PASS"}: a pass needs evidence sluice can check', async () => {
    await rejects(readTestEvidence(host, await project({ [V]: json({ verdict: 'TEST_PASS' }) }), DIR), 'ARTIFACT_INVALID', V, 'evidence', /without evidence/);
  });
  it('a markdown test report alone never establishes a verdict', async () => {
    const root = await project({ [`${DIR}/test-report.md`]: '# Tests\n\nAll TEST_PASS.\n' });
    await rejects(readTestEvidence(host, root, DIR), 'ARTIFACT_MISSING', V, undefined, /derived view/);
  });
  const bad: [string, Record<string, string>, string, string | RegExp | undefined, RegExp][] = [
    ['TEST_FAIL without repair_scope', { [V]: json({ verdict: 'TEST_FAIL', failures: [{ test: 'x' }] }) }, V, 'repair_scope', /must name its repair_scope/],
    ['an unknown repair_scope', { [V]: json({ verdict: 'TEST_FAIL', repair_scope: 'cosmic-rays' }) }, V, 'repair_scope', /repair_scope must be one of/],
    ['TEST_PASS with failures', { [V]: json({ verdict: 'TEST_PASS', failures: [{ test: 'x' }] }) }, V, 'failures', /with failures/],
    ['TEST_BLOCKED without a blocker', { [V]: json({ verdict: 'TEST_BLOCKED' }) }, V, 'blocker', /what blocks/],
    ['counts contradicting the verdict', { [V]: json({ verdict: 'TEST_PASS', counts: { passed: 1, failed: 2 } }) }, V, 'counts.failed', /contradicts/],
    ['a verdict outside the three', { [V]: json({ verdict: 'PASSED' }) }, V, 'verdict', /TEST_PASS, TEST_FAIL or TEST_BLOCKED/],
    ['broken JSON', { [V]: '{\n  "verdict": "TEST_PASS",\n}' }, V, /line 3/, /./],
    ['missing evidence file', { [V]: json({ verdict: 'TEST_PASS', evidence: ['gone.txt'] }) }, V, 'evidence.0', /does not exist/],
    ['evidence outside the artifact folder', { [V]: json({ verdict: 'TEST_PASS', evidence: ['../../../etc/passwd'] }) }, V, 'evidence.0', /outside/],
    [
      'two files that disagree',
      { [V]: json({ verdict: 'TEST_PASS' }), [`${DIR}/test-result.json`]: json({ verdict: 'TEST_FAIL', repair_scope: 'runtime' }) },
      `${DIR}/test-result.json`,
      'verdict',
      /disagrees/,
    ],
  ];
  for (const [what, files, file, field, message] of bad) {
    it(`refuses ${what}`, async () => {
      await rejects(readTestEvidence(host, await project(files), DIR), 'ARTIFACT_INVALID', file, field, message);
    });
  }
});

describe('retrospective-result.json reader', () => {
  const R = `${DIR}/retrospective-result.json`;
  it('reads DOCS_UPDATED with existing documents, and NO_DOC_CHANGE', async () => {
    const root = await project({
      [R]: JSON.stringify({ result: 'DOCS_UPDATED', docs_updated: ['.prizmkit/prizm-docs/a.md'] }),
      '.prizmkit/prizm-docs/a.md': '# a',
    });
    assert.equal((await readRetrospectiveResult(host, root, DIR)).result, 'DOCS_UPDATED');
    const root2 = await project({ [R]: JSON.stringify({ result: 'NO_DOC_CHANGE', summary: 'nothing' }) });
    assert.equal((await readRetrospectiveResult(host, root2, DIR)).result, 'NO_DOC_CHANGE');
  });
  const bad: [string, unknown, string, RegExp][] = [
    ['DOCS_UPDATED without documents', { result: 'DOCS_UPDATED' }, 'docs_updated', /must list/],
    ['NO_DOC_CHANGE with documents', { result: 'NO_DOC_CHANGE', docs_updated: ['x.md'] }, 'docs_updated', /cannot list/],
    ['a document that does not exist', { result: 'DOCS_UPDATED', docs_updated: ['docs/none.md'] }, 'docs_updated.0', /does not exist/],
    ['an unknown result', { result: 'DONE' }, 'result', /DOCS_UPDATED or NO_DOC_CHANGE/],
  ];
  for (const [what, body, field, message] of bad) {
    it(`refuses ${what}`, async () => {
      await rejects(readRetrospectiveResult(host, await project({ [R]: JSON.stringify(body) }), DIR), 'ARTIFACT_INVALID', R, field, message);
    });
  }
});

describe('plan.md task markers', () => {
  const P = `${DIR}/plan.md`;
  it('reads markers in every tolerated form and skips code fences', async () => {
    const tasks = await parsePlanTasks(
      '# Plan\n\n- [x] [T-001] Parse config\n* [ ] **[T-002]** Validate\n1. [X] `[T-003]` Document\n\n```md\n- [ ] [T-009] example only\n```\n\n- not a task\n',
      P,
    );
    assert.deepEqual(
      tasks.map((t) => [t.id, t.done]),
      [
        ['T-001', true],
        ['T-002', false],
        ['T-003', true],
      ],
    );
    assert.equal(tasks[0].title, 'Parse config');
  });
  it('implement is done only when every task is checked (ARTIFACT_MISSING lists the open ones)', async () => {
    const root = await project({ [P]: '- [x] [T-001] a\n- [ ] [T-002] b\n- [ ] [T-003] c\n' });
    await rejects(readImplementedPlan(host, root, DIR), 'ARTIFACT_MISSING', P, 'tasks', /T-002, T-003 not checked/);
  });
  it('refuses a plan without tasks or with a repeated id', async () => {
    await rejects(parsePlanTasks('# Plan\n\nJust prose.\n', P), 'ARTIFACT_INVALID', P, undefined, /no task markers/);
    await rejects(parsePlanTasks('- [ ] [T-001] a\n- [ ] [T-001] b\n', P), 'ARTIFACT_INVALID', P, undefined, /appears twice/);
  });
  it('a plan is ready only with a non-empty spec.md', async () => {
    const root = await project({ [P]: '- [ ] [T-001] a\n', [`${DIR}/spec.md`]: '  \n' });
    await rejects(readPlanReady(host, root, DIR), 'ARTIFACT_INVALID', `${DIR}/spec.md`, undefined, /empty/);
    await rejects(readPlanReady(host, await project({ [P]: '- [ ] [T-001] a\n' }), DIR), 'ARTIFACT_MISSING', `${DIR}/spec.md`);
  });
});

describe('commit-request.json reader', () => {
  const C = `${DIR}/commit-request.json`;
  it('reads message and paths', async () => {
    const root = await project({ [C]: JSON.stringify({ message: 'feat: x', paths: ['src/x.ts'] }) });
    assert.deepEqual((await readCommitRequest(host, root, DIR)).paths, ['src/x.ts']);
  });
  const bad: [string, unknown, string, RegExp][] = [
    ['a path with ..', { message: 'm', paths: ['../outside'] }, 'paths.0', /without "\.\."/],
    ['sluice state', { message: 'm', paths: ['.prizmkit/state/workflows/demo.json'] }, 'paths.0', /never committed/],
    ['an absolute path', { message: 'm', paths: ['/etc/passwd'] }, 'paths.0', /relative/],
    ['an empty message', { message: '  ', paths: ['a'] }, 'message', /empty/],
    ['no paths', { message: 'm', paths: [] }, 'paths', /empty/],
  ];
  for (const [what, body, field, message] of bad) {
    it(`refuses ${what}`, async () => {
      await rejects(readCommitRequest(host, await project({ [C]: JSON.stringify(body) }), DIR), 'ARTIFACT_INVALID', C, field, message);
    });
  }
});
