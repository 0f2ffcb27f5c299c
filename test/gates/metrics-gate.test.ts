import assert from 'node:assert/strict';
import { copyFile, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GateResult } from '../../core/index.ts';
import { data, sdlcKernel, sluice, tempDir, walkTo, writeCoverage, writeCurrentArtifacts, writeFileIn } from '../sdlc/sdlc-fixture.ts';

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
    assert.deepEqual(g3(blocked).map((r) => [r.id, r.passed, r.severity]), [['G3:coverage_minimum', false, 'MUST']]);
    assert.match(g3(blocked)[0].message, /line coverage 55% \(220\/400 lines, coverage\/lcov\.info\) is below the profile minimum 60%/);
    await writeCoverage(dir, 75);
    const review = await sluice(kernel, 'next');
    assert.equal(data<NextDoc>(review).status, 'review-required');
    assert.equal(g3(review)[0].passed, true);
  });

  it('no coverage report in the Build loop is a failure, not a pass', async () => {
    const { kernel } = await buildPhaseProject();
    await writeCurrentArtifacts(kernel);
    const { rm } = await import('node:fs/promises');
    await rm(join(kernel.projectRoot, 'coverage'), { recursive: true });
    const out = await sluice(kernel, 'gate');
    assert.equal(out.exitCode, 1);
    assert.match(g3(out)[0].message, /no coverage report found \(looked for coverage\/coverage-summary\.json, coverage\/lcov\.info/);
  });

  it('reads the profile-named Cobertura report and computes coverage_critical over critical_paths', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    const profile = join(dir, '.sdlc', 'profile.yaml');
    const text = (await readFile(profile, 'utf8')).replace('coverage_minimum: 60', 'coverage_minimum: 65\n  coverage_critical: 100');
    await writeFile(profile, `${text}\nsluice:\n  coverage_reports: [reports/coverage.xml]\n  critical_paths: [src/auth/]\n`);
    await walkTo(kernel, 'build');
    await writeCurrentArtifacts(kernel);
    await writeFileIn(dir, 'reports/.keep', '');
    await copyFile(new URL('../fixtures/sdlc/coverage-reports/cobertura-coverage.xml', import.meta.url), join(dir, 'reports/coverage.xml'));
    const rows = g3(await sluice(kernel, 'gate'));
    assert.deepEqual(rows.map((r) => [r.id, r.passed]), [['G3:coverage_minimum', true], ['G3:coverage_critical', true]]);
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
