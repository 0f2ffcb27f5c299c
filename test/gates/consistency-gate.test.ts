import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GateResult } from '../../core/index.ts';
import { readArtifactMetrics } from '../../gates/consistency/artifact-metrics.ts';
import { data, passPhase, readState, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';

const g5 = (o: { data: unknown }) => (o.data as { results: GateResult[] }).results.filter((r) => r.gate === 'G5-consistency');

describe('G5-consistency: locked metrics and drift', () => {
  it('reads budget-like lines from markdown lists, bold labels and tables, outside code', () => {
    const metrics = readArtifactMetrics('- Budget: $180,000\n**Timeline:** 14 weeks\n| Team size | 4 |\n```\nBudget: $1\n```\nDeadline: 2026-09-30\n');
    assert.deepEqual(metrics.map((m) => [m.key, m.value]), [['artifact.budget', '$180,000'], ['artifact.timeline', '14 weeks'], ['artifact.team_size', '4'], ['artifact.deadline', '2026-09-30']]);
  });

  it('locks metrics at the phase exit, then reports drift with both values as SHOULD (never blocking)', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    const first = g5(await sluice(kernel, 'gate'));
    assert.equal(first.find((r) => r.id === 'G5:locked')?.severity, 'INFO');
    await passPhase(kernel);
    const locked = (await readState(kernel)).phases['0'].locked_metrics ?? {};
    assert.equal(locked['quality.coverage_minimum'].value, 60);
    assert.equal(locked['artifact.budget'].value, '$180,000');
    assert.deepEqual(locked['compliance.frameworks'].value, ['none']);

    const profile = join(dir, '.sdlc/profile.yaml');
    await writeFile(profile, (await readFile(profile, 'utf8')).replace('coverage_minimum: 60', 'coverage_minimum: 40'));
    const constraints = join(dir, '.sdlc/artifacts/00-discovery/constraints.md');
    await writeFile(constraints, (await readFile(constraints, 'utf8')).replace('$180,000', '$240,000'));
    await writeCurrentArtifacts(kernel);
    await writeFile(join(dir, '.sdlc/artifacts/01-requirements/epics.md'), '# Epics\n\n- Timeline: 20 weeks\n');
    const out = await sluice(kernel, 'next');
    const rows = g5(out);
    const drift = Object.fromEntries(rows.filter((r) => r.passed === false).map((r) => [r.id, r.message]));
    assert.match(drift['G5:quality.coverage_minimum'], /quality\.coverage_minimum drifted: 60 when phase 0 was left \(profile\.yaml quality\.coverage_minimum\), now 40/);
    assert.match(drift['G5:artifact.budget'], /artifact\.budget drifted: \$180,000 when phase 0 was left \(00-discovery\/constraints\.md:\d+\), now \$240,000/);
    assert.match(drift['G5:artifact.timeline:conflict'], /artifact\.timeline is 14 weeks in 00-discovery\/constraints\.md:\d+ but 20 weeks in 01-requirements\/epics\.md:\d+/);
    assert.ok(rows.filter((r) => r.passed === false).every((r) => r.severity === 'SHOULD'));
    assert.equal(data<{ status: string }>(out).status, 'review-required', 'drift warns, it does not block');
  });
});
