import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { coverageUnder, parseCoverage } from '../../gates/coverage/read-coverage.ts';

const fixture = (name: string) => readFile(new URL(`../fixtures/sdlc/coverage-reports/${name}`, import.meta.url), 'utf8');

describe('coverage readers', () => {
  it('lcov: sums LF/LH across SF records', async () => {
    const r = await parseCoverage(await fixture('lcov.info'), 'coverage/lcov.info');
    assert.equal(r.format, 'lcov');
    assert.deepEqual([r.found, r.hit, r.pct], [10, 7, 70]);
    assert.deepEqual(r.files.map((f) => f.path.split('/').pop()), ['clinic-scope.ts', 'claim-handler.ts']);
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
