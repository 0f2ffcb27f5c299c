import assert from 'node:assert/strict';
import { copyFile, readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { coverageUnder, parseCoverage } from '../../gates/coverage/read-coverage.ts';
import { join } from 'node:path';
import type { GateResult } from '../../core/index.ts';
import { data, editFrozen, readState, sdlcKernel, sluice, tempDir, walkTo, writeCoverage, writeCurrentArtifacts, writeFileIn } from '../sdlc/sdlc-fixture.ts';

const fixture = (name: string) => readFile(new URL(`../fixtures/sdlc/coverage-reports/${name}`, import.meta.url), 'utf8');

describe('coverage readers', () => {
  it('lcov: sums LF/LH across SF records', async () => {
    const r = await parseCoverage(await fixture('lcov.info'), 'coverage/lcov.info');
    assert.equal(r.format, 'lcov');
    assert.deepEqual([r.found, r.hit, r.pct], [10, 7, 70]);
    assert.deepEqual(
      r.files.map((f) => f.path.split('/').pop()),
      ['clinic-scope.ts', 'claim-handler.ts'],
    );
  });

  it('lcov without LF/LH counts DA lines', async () => {
    const r = await parseCoverage('SF:a.ts\nDA:1,1\nDA:2,0\nDA:3,5\nend_of_record\n', 'lcov.info');
    assert.deepEqual([r.found, r.hit], [3, 2]);
  });

  it('Istanbul json-summary: total.lines and per-file entries', async () => {
    const r = await parseCoverage(await fixture('coverage-summary.json'), 'coverage/coverage-summary.json');
    assert.equal(r.format, 'istanbul-json-summary');
    assert.equal(r.pct, 86.2);
    assert.equal(r.files.length, 2);
  });

  it('Cobertura XML (coverage.py): root lines-valid/lines-covered and per-class lines', async () => {
    const r = await parseCoverage(await fixture('cobertura-coverage.xml'), 'coverage.xml');
    assert.equal(r.format, 'cobertura');
    assert.deepEqual([r.found, r.hit, r.pct], [10, 7, 70]);
    assert.deepEqual(r.files, [
      { path: 'src/auth/scope.py', found: 3, hit: 3 },
      { path: 'src/intake/handler.py', found: 7, hit: 4 },
    ]);
    assert.deepEqual(coverageUnder(r, '/home/ci/claims', ['src/auth/']), { found: 3, hit: 3, files: 1 });
  });

  it('critical paths match absolute lcov paths under the project root', async () => {
    const r = await parseCoverage(await fixture('lcov.info'), 'coverage/lcov.info');
    assert.deepEqual(coverageUnder(r, '/home/ci/claims', ['./src/auth']), { found: 4, hit: 3, files: 1 });
  });

  it('refuses what is not coverage, with a reason', async () => {
    await assert.rejects(parseCoverage('hello world\n', 'lcov.info'), /not an lcov tracefile/);
    await assert.rejects(parseCoverage('{"lines": 3}', 'x.json'), /not an Istanbul json-summary/);
    await assert.rejects(parseCoverage('<coverage line-rate="0.5"><packages>', 'x.xml'), /not well-formed XML/);
    await assert.rejects(parseCoverage('<report/>', 'x.xml'), /no <coverage> root element/);
  });
});

type NextDoc = { status: string; results: GateResult[] };
const g3 = (o: { data: unknown }) => (o.data as NextDoc).results.filter((r) => r.gate === 'G3-metrics');

async function buildPhaseProject(profile = 'starter') {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  await sluice(kernel, 'init', { profile, type: 'service' });
  await walkTo(kernel, 'build');
  return { dir, kernel };
}

describe('G3-metrics in the Build loop', () => {
  it('a coverage file below the profile minimum blocks build; raising coverage unblocks it', async () => {
    const { dir, kernel } = await buildPhaseProject();
    await writeCurrentArtifacts(kernel);
    await writeCoverage(dir, 55);
    const blocked = await sluice(kernel, 'next', { confirmed: true });
    assert.equal(blocked.exitCode, 1);
    assert.equal(data<NextDoc>(blocked).status, 'blocked');
    assert.deepEqual(
      g3(blocked).map((r) => [r.id, r.passed, r.severity]),
      [['G3:coverage_minimum', false, 'MUST']],
    );
    assert.match(g3(blocked)[0].message, /line coverage 55% \(220\/400 lines, coverage\/lcov\.info\) is below the profile minimum 60%/);
    await writeCoverage(dir, 75);
    const review = await sluice(kernel, 'next');
    assert.equal(data<NextDoc>(review).status, 'review-required');
    assert.equal(g3(review)[0].passed, true);
  });

  it('no coverage report in the Build loop is a manual judgement, not a pass: it blocks until a person signs it off', async () => {
    const { kernel } = await buildPhaseProject();
    await writeCurrentArtifacts(kernel);
    const { rm } = await import('node:fs/promises');
    await rm(join(kernel.projectRoot, 'coverage'), { recursive: true });
    const out = await sluice(kernel, 'gate');
    assert.deepEqual([g3(out)[0].passed, g3(out)[0].severity], [null, 'MUST']);
    assert.match(
      g3(out)[0].message,
      /no coverage report found \(looked for coverage\/coverage-summary\.json, coverage\/lcov\.info.*\*\*\/TestResults\/\*\/coverage\.cobertura\.xml\); run the tests with coverage first, or a person who saw the figure signs it off: sluice next --approve G3:coverage_minimum --signed-by NAME/,
    );
    // Confirming the listed gates signs this one off too (seed §6 step 5), recorded with the signer.
    const signed = await sluice(kernel, 'next', { signedBy: 'Grace Hopper', confirmed: true });
    assert.equal(signed.exitCode, 0, String(signed.human));
    const approvals = (await readState(kernel)).history.at(-1)?.approvals ?? [];
    assert.deepEqual(
      approvals.filter((a) => a.gate === 'G3:coverage_minimum').map((a) => a.signed_by),
      ['Grace Hopper'],
    );
  });

  it("finds coverlet's TestResults/<guid>/coverage.cobertura.xml (the newest run) and profile globs", async () => {
    const { dir, kernel } = await buildPhaseProject();
    await writeCurrentArtifacts(kernel);
    const { rm, utimes } = await import('node:fs/promises');
    await rm(join(dir, 'coverage'), { recursive: true });
    const cobertura = (rate: number) =>
      `<?xml version="1.0"?>\n<coverage line-rate="${rate}" lines-covered="${rate * 100}" lines-valid="100"><packages><package name="Api"><classes><class name="C" filename="src/Api/C.cs"><lines>${Array.from({ length: 100 }, (_, i) => `<line number="${i + 1}" hits="${i < rate * 100 ? 1 : 0}"/>`).join('')}</lines></class></classes></package></packages></coverage>\n`;
    const old = await writeFileIn(dir, 'tests/Api.Tests/TestResults/0b5e1c2a-old/coverage.cobertura.xml', cobertura(0.4));
    await writeFileIn(dir, 'tests/Api.Tests/TestResults/9f2d7a10-new/coverage.cobertura.xml', cobertura(0.9));
    await utimes(old, new Date(2020, 0, 1), new Date(2020, 0, 1));
    let row = g3(await sluice(kernel, 'gate'))[0];
    assert.equal(row.passed, true);
    assert.match(row.message, /line coverage 90% \(90\/100 lines, tests\/Api\.Tests\/TestResults\/9f2d7a10-new\/coverage\.cobertura\.xml\)/);
    await editFrozen(dir, '.sdlc/profile.yaml', (t) => `${t}\nsluice:\n  coverage_reports: ["reports/**/*.lcov"]\n`);
    await writeFileIn(dir, 'reports/unit/app.lcov', 'SF:a.ts\nDA:1,1\nDA:2,0\nend_of_record\n');
    row = g3(await sluice(kernel, 'gate'))[0];
    assert.match(row.message, /line coverage 50% \(1\/2 lines, reports\/unit\/app\.lcov\)/);
  });

  it('reads the profile-named Cobertura report and computes coverage_critical over critical_paths', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    await editFrozen(
      dir,
      '.sdlc/profile.yaml',
      (t) =>
        `${t.replace('coverage_minimum: 60', 'coverage_minimum: 65\n  coverage_critical: 100')}\nsluice:\n  coverage_reports: [reports/coverage.xml]\n  critical_paths: [src/auth/]\n`,
    );
    await walkTo(kernel, 'build');
    await writeCurrentArtifacts(kernel);
    await writeFileIn(dir, 'reports/.keep', '');
    await copyFile(new URL('../fixtures/sdlc/coverage-reports/cobertura-coverage.xml', import.meta.url), join(dir, 'reports/coverage.xml'));
    const rows = g3(await sluice(kernel, 'gate'));
    assert.deepEqual(
      rows.map((r) => [r.id, r.passed]),
      [
        ['G3:coverage_minimum', true],
        ['G3:coverage_critical', true],
      ],
    );
    assert.match(rows[0].message, /line coverage 70% \(7\/10 lines, reports\/coverage\.xml\)/);
    assert.match(rows[1].message, /critical-path coverage 100% over 1 files/);
  });

  it('an unreadable report fails with the reason', async () => {
    const { dir, kernel } = await buildPhaseProject();
    await writeCurrentArtifacts(kernel);
    await writeFileIn(dir, 'coverage/coverage-summary.json', '{"total": {"lines": {"pct": "Unknown"}}}');
    const rows = g3(await sluice(kernel, 'gate'));
    assert.equal(rows[0].passed, false);
    assert.match(rows[0].message, /coverage-summary\.json cannot be read: no total\.lines/);
  });
});
