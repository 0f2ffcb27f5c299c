import assert from 'node:assert/strict';
import { access, readFile, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { data, passPhase, readState, sdlcKernel, sluice, tempDir, writeFileIn } from './sdlc-fixture.ts';

const asset = (rel: string) => readFile(new URL(`../../plugins/sdlc/${rel}`, import.meta.url), 'utf8');
const exists = (p: string) => access(p).then(() => true, () => false);

/** A profile pack folder made from the starter profile with edits. */
async function makePack(dir: string, edit: (profile: string) => string, extra: Record<string, string> = {}): Promise<void> {
  await writeFileIn(dir, 'profile.yaml', edit(await asset('packs/starter/profile.yaml')));
  for (const [rel, text] of Object.entries(extra)) await writeFileIn(dir, rel, text);
}
const withFrameworks = (id: string, frameworks: string) => (p: string) => p.replace('profile_id: "starter"', `profile_id: "${id}"`).replace('frameworks:\n    - none', `frameworks: ${frameworks}`);

describe('profile packs', () => {
  it('a folder pack listing hipaa and gdpr freezes the built-in compliance files; later pack edits never reach the project', async () => {
    const dir = await tempDir();
    await makePack(join(dir, 'packs/acme'), withFrameworks('acme-health', '[hipaa, gdpr]'));
    const kernel = await sdlcKernel(dir);
    const init = await sluice(kernel, 'init', { profile: './packs/acme' });
    assert.equal(init.exitCode, 0, init.human ?? "");
    assert.equal((await readState(kernel)).profile_id, 'acme-health');
    assert.deepEqual((await readdir(join(dir, '.sdlc/compliance'))).sort(), ['gdpr-gates.yaml', 'hipaa-gates.yaml']);
    assert.equal(await readFile(join(dir, '.sdlc/compliance/hipaa-gates.yaml'), 'utf8'), await asset('packs/compliance/hipaa-gates.yaml'));

    const frozen = await readFile(join(dir, '.sdlc/profile.yaml'), 'utf8');
    await writeFile(join(dir, 'packs/acme/profile.yaml'), frozen.replace('coverage_minimum: 60', 'coverage_minimum: 99'));
    assert.equal(await readFile(join(dir, '.sdlc/profile.yaml'), 'utf8'), frozen);
    const gate = await sluice(kernel, 'gate');
    const metrics = data<{ results: { id?: string; metrics?: Record<string, { value: unknown }> }[] }>(gate).results.find((r) => r.id === 'G5:metrics');
    assert.equal(metrics?.metrics?.['quality.coverage_minimum'].value, 60, 'gates read the frozen profile');
    assert.ok(data<{ results: { id?: string }[] }>(gate).results.some((r) => r.id === 'gdpr-art30-personal-data-scope'));
  });

  it('an npm package installed in the project is a pack, with its own compliance file', async () => {
    const dir = await tempDir();
    const pkg = join(dir, 'node_modules/@acme/sdlc-pack');
    const soc2 = 'version: "1.0"\nframework: soc2\ngates:\n  - phase: 0\n    id: acme-soc2-charter\n    name: Charter\n    check_type: artifact_content\n    artifact: constitution.md\n    required_content: [decision rights]\n    severity: MUST\n';
    await makePack(pkg, withFrameworks('acme', '[soc2]'), { 'package.json': '{"name":"@acme/sdlc-pack","version":"2.1.0","exports":{".":"./index.js"}}', 'compliance/soc2-gates.yaml': soc2 });
    const kernel = await sdlcKernel(dir);
    const init = await sluice(kernel, 'init', { profile: '@acme/sdlc-pack' });
    assert.equal(init.exitCode, 0, init.human ?? "");
    assert.equal(data<{ pack: { source: string } }>(init).pack.source, 'package');
    assert.equal(await readFile(join(dir, '.sdlc/compliance/soc2-gates.yaml'), 'utf8'), soc2);
  });

  it('packs listed under profiles: in sluice.config are found by profile id; microsoft-enterprise names the enterprise pack', async () => {
    const dir = await tempDir();
    await makePack(join(dir, 'org-packs/platform'), withFrameworks('acme-platform', '[none]'));
    const kernel = await sdlcKernel(dir, { config: { profiles: ['./org-packs'] } });
    const init = await sluice(kernel, 'init', { profile: 'acme-platform' });
    assert.equal(init.exitCode, 0, init.human ?? "");
    assert.equal(data<{ pack: { source: string } }>(init).pack.source, 'config');
    const other = await sdlcKernel(await tempDir());
    assert.equal((await sluice(other, 'init', { profile: 'microsoft-enterprise' })).exitCode, 0);
    assert.equal(await readFile(join(other.projectRoot, '.sdlc/profile.yaml'), 'utf8'), await asset('packs/enterprise/profile.yaml'));
  });

  it("a pack's own phase-registry.yaml replaces the bundled one: its phases, slugs and order", async () => {
    const dir = await tempDir();
    const registry = `version: "2.0"\nphases:\n  - {id: ship, slug: "c-ship", order: 2, name: ship, terminal: true}\n  - {id: plan, slug: "a-plan", order: 0, name: plan, exit_gate: {conditions: [{artifact: plan.md, check: exists_and_complete}, {check: "Plan reviewed by the team"}]}, artifacts: {required: [plan.md]}}\n  - {id: 5, slug: "b-make", order: 1, name: make, continuous: true, artifacts: {required: [notes.md]}}\n`;
    await makePack(join(dir, 'pack'), (p) => p, { 'phase-registry.yaml': registry });
    const kernel = await sdlcKernel(dir);
    assert.equal((await sluice(kernel, 'init', { profile: './pack' })).exitCode, 0);
    assert.deepEqual((await readdir(join(dir, '.sdlc/artifacts'))).sort(), ['a-plan', 'b-make', 'c-ship']);
    const state = await readState(kernel);
    assert.deepEqual(Object.keys(state.phases).sort(), ['5', 'plan', 'ship']);
    assert.equal(String(state.current_phase), 'plan');
    await passPhase(kernel);
    assert.equal(String((await readState(kernel)).current_phase), '5');
    await passPhase(kernel);
    assert.equal(String((await readState(kernel)).current_phase), 'ship');
  });

  it('refuses an invalid pack before writing anything, naming file and field', async () => {
    const dir = await tempDir();
    await makePack(join(dir, 'bad-range'), (p) => p.replace('coverage_minimum: 60', 'coverage_minimum: 120'));
    await makePack(join(dir, 'bad-framework'), withFrameworks('pci', '[pci-dss]'));
    await makePack(join(dir, 'bad-id'), (p) => p.replace('profile_id: "starter"', 'profile_id: "Acme Corp"'));
    const kernel = await sdlcKernel(dir);
    const cases: [string, RegExp][] = [
      ['./bad-range', /PROFILE_INVALID: bad-range\/profile\.yaml, field quality\.coverage_minimum: Invalid value: Expected <=100 but received 120/],
      ['./bad-framework', /PROFILE_INVALID: bad-framework\/profile\.yaml, field compliance\.frameworks: framework pci-dss has no gate file/],
      ['./bad-id', /PROFILE_INVALID: bad-id\/profile\.yaml, field company\.profile_id: profile_id must be kebab-case/],
      ['./no-such-folder', /PROFILE_NOT_FOUND/],
    ];
    for (const [spec, message] of cases) {
      const out = await sluice(kernel, 'init', { profile: spec });
      assert.equal(out.exitCode, 2);
      assert.match(out.human ?? '', message);
    }
    assert.equal(await exists(join(dir, '.sdlc')), false);
  });

  it('--force re-initialises: state starts over, a framework file the new profile does not list is removed, artifacts stay', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init', { profile: 'enterprise' });
    await passPhase(kernel);
    const refused = await sluice(kernel, 'init', { profile: 'starter' });
    assert.equal(refused.exitCode, 2);
    assert.equal(refused.error?.code, 'PROJECT_EXISTS');
    assert.equal((await sluice(kernel, 'init', { profile: 'starter', force: true })).exitCode, 0);
    const state = await readState(kernel);
    assert.deepEqual([state.profile_id, state.history.length, String(state.current_phase)], ['starter', 0, '0']);
    assert.equal(await exists(join(dir, '.sdlc/compliance')), false);
    assert.equal(await exists(join(dir, '.sdlc/artifacts/00-discovery/constitution.md')), true);
  });
});
