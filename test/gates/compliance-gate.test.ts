import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { GateResult } from '../../core/index.ts';
import { data, passPhase, sdlcKernel, sluice, tempDir, walkTo, writeCoverage, writeCurrentArtifacts, writeFileIn } from '../sdlc/sdlc-fixture.ts';

type Doc = { status: string; results: GateResult[]; blockers: string[] };
const g4 = (o: { data: unknown }) => (o.data as Doc).results.filter((r) => r.gate === 'G4-compliance');

async function enterprise() {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  await sluice(kernel, 'init', { profile: 'enterprise', type: 'service' });
  return { dir, kernel };
}

describe('G4-compliance from the frozen compliance files', () => {
  it('artifact_content names the missing phrase and blocks; the phrase present (any case, plural) passes', async () => {
    const { dir, kernel } = await enterprise();
    await passPhase(kernel);
    await writeCurrentArtifacts(kernel);
    const requirements = join(dir, '.sdlc/artifacts/01-requirements/requirements.md');
    await writeFile(requirements, '# Requirements\n\n- REQ-001 Clinics sign in with OAuth2; authentication is per clinic.\n');
    const blocked = await sluice(kernel, 'next', { confirmed: true });
    assert.equal(data<Doc>(blocked).status, 'blocked');
    assert.deepEqual(g4(blocked).map((r) => [r.id, r.passed, r.severity]), [['soc2-cc6.1-requirements', false, 'MUST']]);
    assert.match(g4(blocked)[0].message, /soc2 CC6\.1 — Logical and physical access controls: requirements\.md does not mention "authorization"/);
    await writeFile(requirements, '# Requirements\n\nAuthentication: OAuth2.\nAuthorizations are checked per clinic.\n');
    assert.equal(g4(await sluice(kernel, 'gate'))[0].passed, true);
  });

  it('manual checks keep their compliance id, metric checks read coverage against threshold_key', async () => {
    const { dir, kernel } = await enterprise();
    await walkTo(kernel, 'build');
    await writeCurrentArtifacts(kernel);
    await writeCoverage(dir, 70);
    const rows = g4(await sluice(kernel, 'gate'));
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    assert.deepEqual(['soc2-cc6.1-implementation', 'soc2-cc7.2-vulnerability', 'soc2-cc8.1-code-review'].map((id) => byId[id].passed), [null, null, null]);
    assert.equal(byId['soc2-cc7.1-testing'].passed, false);
    assert.match(byId['soc2-cc7.1-testing'].message, /line coverage 70% \(coverage\/lcov\.info\) is below quality\.coverage_minimum 80%/);
    await writeCoverage(dir, 85);
    assert.equal(g4(await sluice(kernel, 'gate')).find((r) => r.id === 'soc2-cc7.1-testing')?.passed, true);
  });

  it('hipaa and gdpr checks run for a profile listing them; a missing frozen file is a MUST failure', async () => {
    const dir = await tempDir();
    const starter = await readFile(new URL('../../plugins/sdlc/packs/starter/profile.yaml', import.meta.url), 'utf8');
    await writeFileIn(dir, 'pack/profile.yaml', starter.replace('frameworks:\n    - none', 'frameworks: [hipaa, gdpr]'));
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init', { profile: './pack' });
    await writeCurrentArtifacts(kernel);
    await writeFile(join(dir, '.sdlc/artifacts/00-discovery/constraints.md'), '# Constraints\n\nClaims carry protected health information.\n');
    let rows = g4(await sluice(kernel, 'gate'));
    assert.deepEqual(rows.map((r) => [r.id, r.passed]), [['hipaa-164.308a1-phi-scope', true], ['gdpr-art30-personal-data-scope', false]]);
    await rm(join(dir, '.sdlc/compliance/gdpr-gates.yaml'));
    rows = g4(await sluice(kernel, 'gate'));
    assert.deepEqual(rows[0], { gate: 'G4-compliance', id: 'G4:gdpr', check: 'gdpr gate file', passed: false, message: 'the profile enforces gdpr but .sdlc/compliance/gdpr-gates.yaml is missing; re-run sluice init --force or restore it', severity: 'MUST' });
  });

  it('a compliance file with a wrong check_type or a missing field is refused, naming the field', async () => {
    const { dir, kernel } = await enterprise();
    const file = join(dir, '.sdlc/compliance/soc2-gates.yaml');
    const text = await readFile(file, 'utf8');
    await writeFile(file, text.replace('check_type: artifact_exists', 'check_type: artifact_exist'));
    let out = await sluice(kernel, 'gate');
    assert.equal(out.exitCode, 2);
    assert.match(out.human ?? '', /COMPLIANCE_INVALID: \.sdlc\/compliance\/soc2-gates\.yaml, field gates\.2\.check_type/);
    await writeFile(file, text.replace(/    required_content:\n      - "rollback"\n/, ''));
    out = await sluice(kernel, 'gate');
    assert.match(out.human ?? '', /COMPLIANCE_INVALID: .*field gates\.8\.required_content/);
  });
});
