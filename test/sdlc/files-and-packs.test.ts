import assert from 'node:assert/strict';
import { access, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { data, type Outcome, passPhase, readState, sdlcKernel, sluice, tempDir, writeCurrentArtifacts, writeFileIn } from './sdlc-fixture.ts';
import { gateData, type GateResult } from '../../core/index.ts';
import { consistencyGate, type ConsistencyData } from '../../gates/consistency-gate.ts';

const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');

/** A fresh starter project and its state text. */
async function project() {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  assert.equal((await sluice(kernel, 'init', { type: 'service' })).exitCode, 0);
  return { dir, kernel, state: await readFile(statePath(dir), 'utf8') };
}

/**
 * Drops the frozen-file checksums from state.yaml, as in a project set up by another tool: the
 * tests below damage frozen files on purpose to see how they are read, which a checksummed
 * project refuses earlier (FROZEN_MODIFIED, see frozen-files.test.ts).
 */
async function forgetChecksums(dir: string): Promise<void> {
  const text = await readFile(statePath(dir), 'utf8');
  await writeFile(statePath(dir), text.replace(/^frozen_files:\n(?: {2}.*\n)*/m, ''));
}

/** Runs `next --confirmed` (and `gate`) on a damaged file: exit 2, a one-line error naming file and field, the file unchanged. */
async function refuses(dir: string, file: string, code: RegExp, field?: RegExp): Promise<Outcome> {
  const kernel = await sdlcKernel(dir);
  const before = await readFile(file, 'utf8');
  for (const run of [() => sluice(kernel, 'next', { confirmed: true }), () => sluice(kernel, 'gate')]) {
    const out = await run();
    assert.equal(out.exitCode, 2, out.human ?? '');
    assert.match(out.error?.code ?? '', code);
    assert.equal(out.human?.includes('\n'), false, 'one line');
    assert.match(out.human ?? '', new RegExp(file.slice(dir.length + 1).replace(/[.]/g, '\\.')));
    if (field) assert.match(out.error?.field ?? out.human ?? '', field);
  }
  assert.equal(await readFile(file, 'utf8'), before, 'nothing written');
  return (await sluice(kernel, 'gate')) as Outcome;
}

describe('bad input: a clear error, exit 2, nothing written', () => {
  it('malformed YAML names the line', async () => {
    const { dir, state } = await project();
    await writeFile(statePath(dir), state.replace('current_phase: "0"', 'current_phase: ["0"'));
    const out = await refuses(dir, statePath(dir), /STATE_CORRUPT/);
    assert.match(out.error?.field ?? '', /line \d+/);
  });

  it('wrong types name the field', async () => {
    const { dir, state } = await project();
    await writeFile(statePath(dir), state.replace(/history: \[\]/, 'history: "none"'));
    await refuses(dir, statePath(dir), /STATE_INVALID/, /^history$/);
    await writeFile(statePath(dir), state.replace(/status: active/, 'status: running'));
    await refuses(dir, statePath(dir), /STATE_INVALID/, /phases\.0\.status/);
  });

  it('a YAML alias bomb is refused before it expands', async () => {
    const { dir, state } = await project();
    const bomb =
      'bomb_a: &a [x, x, x, x, x, x, x, x, x]\nbomb_b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nbomb_c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nbomb_d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nbomb_e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n';
    await writeFile(statePath(dir), state + bomb);
    const out = await refuses(dir, statePath(dir), /STATE_CORRUPT/);
    assert.match(out.human ?? '', /alias/i);
  });

  it('a __proto__ key is refused, naming where it is', async () => {
    const { dir, state } = await project();
    await writeFile(statePath(dir), state.replace('  "1":\n', '  "1":\n    __proto__:\n      polluted: true\n'));
    const out = await refuses(dir, statePath(dir), /STATE_CORRUPT/);
    assert.match(out.human ?? '', /__proto__.*phases\.1\.__proto__/);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
  });

  it('an unknown gate type in the frozen profile is refused by name', async () => {
    const { dir } = await project();
    await forgetChecksums(dir);
    const profile = join(dir, '.sdlc', 'profile.yaml');
    await writeFile(profile, `${await readFile(profile, 'utf8')}\nsluice:\n  gates:\n    - id: sast\n      type: acme-sast\n      phases: [0]\n`);
    const out = await refuses(dir, profile, /GATE_TYPE_UNKNOWN/, /sluice\.gates\.0\.type/);
    assert.match(out.human ?? '', /unknown gate type "acme-sast"; registered types are .*integrity/);
  });

  it('an artifact path escaping the project is refused, in the registry and in a compliance file', async () => {
    const { dir } = await project();
    await forgetChecksums(dir);
    const registry = join(dir, '.sdlc', 'phase-registry.yaml');
    const text = await readFile(registry, 'utf8');
    await writeFile(registry, text.replace('- "constitution.md"\n', '- "../../etc/passwd"\n'));
    await refuses(dir, registry, /REGISTRY_INVALID/, /phases\.0\.artifacts\.required\.0/);
    await writeFile(registry, text);

    const soc2 = await tempDir();
    const k = await sdlcKernel(soc2);
    await sluice(k, 'init', { profile: 'enterprise' });
    await forgetChecksums(soc2);
    const compliance = join(soc2, '.sdlc', 'compliance', 'soc2-gates.yaml');
    const c = await readFile(compliance, 'utf8');
    // Phase 0 has no soc2 checks; put one there that points outside.
    await writeFile(
      compliance,
      c.replace(
        'gates:\n',
        'gates:\n  - phase: 0\n    id: escape\n    name: Escape\n    check_type: artifact_exists\n    artifact: "../../../../etc/passwd"\n    severity: MUST\n',
      ),
    );
    const out = await refuses(soc2, compliance, /PATH_OUTSIDE_PROJECT/, /gates\.0\.artifact/);
    assert.match(out.human ?? '', /"\.sdlc\/artifacts\/00-discovery\/\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" leads outside the project/);
  });

  it('usage errors of next, reenter and init are exit 2 with the reason; a partial approval without --confirmed is review required (1)', async () => {
    const { dir, kernel } = await project();
    await writeCurrentArtifacts(kernel);
    const ids = data<{ unapproved: { id: string }[] }>(await sluice(kernel, 'next')).unapproved.map((m) => m.id);
    const cases: [Outcome, number, RegExp][] = [
      [
        await sluice(kernel, 'next', { approve: ['G7:not-a-gate'], signedBy: 'Ana', confirmed: true }),
        2,
        /G7:not-a-gate is not a manual gate of phase 0; manual gates: G7:/,
      ],
      [await sluice(kernel, 'next', { approve: ids, confirmed: true }), 2, /--approve needs --signed-by/],
      [await sluice(kernel, 'next', { approve: ids.slice(0, 2), signedBy: 'Ana' }), 1, /REVIEW REQUIRED: 2 manual gates need sign-off/],
      [
        await sluice(kernel, 'reenter', { justification: 'x' }, ['7']),
        2,
        /TRANSITION_INVALID: .*re-entry goes back: phase 7 is not before the current phase 0/,
      ],
      [await sluice(kernel, 'reenter', {}, ['0']), 2, /--justification.*a justification is required/],
      [await sluice(kernel, 'skip', { confirmed: true }), 2, /a justification is required/],
      [await sluice(kernel, 'init', {}), 2, /PROJECT_EXISTS: \.sdlc\/state\.yaml/],
      [await sluice(await sdlcKernel(await tempDir()), 'next', {}), 2, /PROJECT_MISSING/],
      [
        await sluice(await sdlcKernel(await tempDir()), 'init', { profile: 'no-such-pack' }),
        2,
        /PROFILE_NOT_FOUND: field --profile: no built-in pack \(starter, enterprise, microsoft-enterprise\)/,
      ],
    ];
    for (const [out, code, message] of cases) {
      assert.equal(out.exitCode, code, out.human ?? '');
      assert.match(out.human ?? '', message);
    }
    assert.match(await readFile(statePath(dir), 'utf8'), /history: \[\]/);
  });

  it('an unknown phase is exit 2 everywhere it can be named', async () => {
    const { kernel } = await project();
    for (const out of [await sluice(kernel, 'gate', { phase: '5' }), await sluice(kernel, 'reenter', { justification: 'x' }, ['4'])]) {
      assert.equal(out.exitCode, 2);
      assert.equal(out.error?.code, 'PHASE_UNKNOWN');
    }
  });
});

describe('state written by other tools is read as it is', () => {
  it('reads bare and quoted ids as the same phase, anchors and aliases, map or list gate_results, and keeps extra keys on rewrite', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    const foreign = `# written by the Python plugin
version: "1.0"
profile_id: starter
project_name: Legacy
created_at: 2026-03-20T10:00:00
project_type: service
current_phase: 1
phase_name: requirements
owner_team: platform          # a key sluice does not know
defaults: &pending {status: pending, entered_at: null, completed_at: null, gate_results: {}, artifacts: []}
phases:
  0: {name: discovery, status: completed, entered_at: "2026-03-20T10:00:00Z", completed_at: "2026-03-21T14:30:00Z", gate_results: [{gate: G1-integrity, artifact: constitution.md, passed: true, message: ok, severity: MUST}], artifacts: [constitution.md], reviewer: kim}
  '1': {name: requirements, status: active, entered_at: "2026-03-21T15:00:00Z", completed_at: null, gate_results: {}, artifacts: []}
  2: {<<: *pending, name: design}
  "3": {name: foundation, <<: *pending}
  build: {name: build, <<: *pending}
  7: {name: documentation, <<: *pending}
  8: {name: deployment, <<: *pending}
  9: {name: monitoring, <<: *pending}
  close: {name: close, <<: *pending}
history:
  - {from: 0, to: 1, at: "2026-03-21T14:30:00Z", gate_results: {passed: 6, failed: 0, manual: 1}, justification: "All gates passed, user confirmed"}
`;
    await writeFile(statePath(dir), foreign);
    const gate = await sluice(kernel, 'gate');
    assert.equal(data<{ phase: { id: string } }>(gate).phase.id, '1', 'current_phase: 1 is phase "1"');
    await sluice(kernel, 'reenter', { justification: 'Stakeholder map incomplete' }, ['0']);
    const state = await readState(kernel);
    assert.equal(String(state.current_phase), '0');
    assert.equal((state as Record<string, unknown>).owner_team, 'platform');
    assert.equal((state.phases['0'] as Record<string, unknown>).reviewer, 'kim');
    assert.equal(state.phases['1'].status, 'pending');
    assert.equal(state.phases['2'].name, 'design');
    assert.equal(state.history[0].justification, 'All gates passed, user confirmed');
    assert.equal(state.history[1].reentry, true);
    const text = await readFile(statePath(dir), 'utf8');
    assert.doesNotMatch(text, /[&*]pending/, 'rewritten without anchors, so any reader reads it plainly');
  });

  it('refuses a file where a bare and a quoted key name the same phase', async () => {
    const { dir, state } = await project();
    await writeFile(
      statePath(dir),
      state.replace('  "1":\n', '  1:\n    name: requirements\n    status: pending\n    entered_at: null\n    completed_at: null\n  "1":\n'),
    );
    const out = await refuses(dir, statePath(dir), /STATE_CORRUPT/);
    assert.match(out.human ?? '', /duplicate key "1" \(at phases\.1; quoted and bare keys are the same\)/);
  });
});

const asset = (rel: string) => readFile(new URL(`../../plugins/sdlc/${rel}`, import.meta.url), 'utf8');
const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

/** A profile pack folder made from the starter profile with edits. */
async function makePack(dir: string, edit: (profile: string) => string, extra: Record<string, string> = {}): Promise<void> {
  await writeFileIn(dir, 'profile.yaml', edit(await asset('packs/starter/profile.yaml')));
  for (const [rel, text] of Object.entries(extra)) await writeFileIn(dir, rel, text);
}
const withFrameworks = (id: string, frameworks: string) => (p: string) =>
  p.replace('profile_id: "starter"', `profile_id: "${id}"`).replace('frameworks:\n    - none', `frameworks: ${frameworks}`);

describe('profile packs', () => {
  it('a folder pack listing hipaa and gdpr freezes the built-in compliance files; later pack edits never reach the project', async () => {
    const dir = await tempDir();
    await makePack(join(dir, 'packs/acme'), withFrameworks('acme-health', '[hipaa, gdpr]'));
    const kernel = await sdlcKernel(dir);
    const init = await sluice(kernel, 'init', { profile: './packs/acme' });
    assert.equal(init.exitCode, 0, init.human ?? '');
    assert.equal((await readState(kernel)).profile_id, 'acme-health');
    assert.deepEqual((await readdir(join(dir, '.sdlc/compliance'))).sort(), ['gdpr-gates.yaml', 'hipaa-gates.yaml']);
    assert.equal(await readFile(join(dir, '.sdlc/compliance/hipaa-gates.yaml'), 'utf8'), await asset('packs/compliance/hipaa-gates.yaml'));

    const frozen = await readFile(join(dir, '.sdlc/profile.yaml'), 'utf8');
    await writeFile(join(dir, 'packs/acme/profile.yaml'), frozen.replace('coverage_minimum: 60', 'coverage_minimum: 99'));
    assert.equal(await readFile(join(dir, '.sdlc/profile.yaml'), 'utf8'), frozen);
    const gate = await sluice(kernel, 'gate');
    const metrics = gateData<ConsistencyData>(consistencyGate, data<{ results: GateResult[] }>(gate).results)?.metrics;
    assert.equal(metrics?.['quality.coverage_minimum'].value, 60, 'gates read the frozen profile');
    assert.ok(data<{ results: { id?: string }[] }>(gate).results.some((r) => r.id === 'gdpr-art30-personal-data-scope'));
  });

  it('an npm package installed in the project is a pack, with its own compliance file', async () => {
    const dir = await tempDir();
    const pkg = join(dir, 'node_modules/@acme/sdlc-pack');
    const soc2 =
      'version: "1.0"\nframework: soc2\ngates:\n  - phase: 0\n    id: acme-soc2-charter\n    name: Charter\n    check_type: artifact_content\n    artifact: constitution.md\n    required_content: [decision rights]\n    severity: MUST\n';
    await makePack(pkg, withFrameworks('acme', '[soc2]'), {
      'package.json': '{"name":"@acme/sdlc-pack","version":"2.1.0","exports":{".":"./index.js"}}',
      'compliance/soc2-gates.yaml': soc2,
    });
    const kernel = await sdlcKernel(dir);
    const init = await sluice(kernel, 'init', { profile: '@acme/sdlc-pack' });
    assert.equal(init.exitCode, 0, init.human ?? '');
    assert.equal(data<{ pack: { source: string } }>(init).pack.source, 'package');
    assert.equal(await readFile(join(dir, '.sdlc/compliance/soc2-gates.yaml'), 'utf8'), soc2);
  });

  it('packs listed under profiles: in sluice.config are found by profile id; microsoft-enterprise names the enterprise pack', async () => {
    const dir = await tempDir();
    await makePack(join(dir, 'org-packs/platform'), withFrameworks('acme-platform', '[none]'));
    const kernel = await sdlcKernel(dir, { config: { profiles: ['./org-packs'] } });
    const init = await sluice(kernel, 'init', { profile: 'acme-platform' });
    assert.equal(init.exitCode, 0, init.human ?? '');
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

  it('--force re-initialises only with --confirmed once there is history: state starts over, a backup is kept, a framework file the new profile does not list is removed, artifacts stay', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init', { profile: 'enterprise' });
    await passPhase(kernel);
    const refused = await sluice(kernel, 'init', { profile: 'starter' });
    assert.equal(refused.exitCode, 2);
    assert.equal(refused.error?.code, 'PROJECT_EXISTS');
    const unconfirmed = await sluice(kernel, 'init', { profile: 'starter', force: true });
    assert.equal(unconfirmed.exitCode, 1, 'history would be dropped: confirmation required');
    assert.equal(unconfirmed.error?.code, 'APPROVAL_REQUIRED');
    assert.equal((await readState(kernel)).history.length, 1, 'nothing changed');
    const forced = await sluice(kernel, 'init', { profile: 'starter', force: true, confirmed: true });
    assert.equal(forced.exitCode, 0);
    const backup = data<{ backup: string }>(forced).backup;
    assert.match(await readFile(join(dir, backup, 'state.yaml'), 'utf8'), /from: "0"/, 'the old history is kept in the backup');
    assert.equal(await exists(join(dir, backup, 'compliance/soc2-gates.yaml')), true);
    const state = await readState(kernel);
    assert.deepEqual([state.profile_id, state.history.length, String(state.current_phase)], ['starter', 0, '0']);
    assert.equal(await exists(join(dir, '.sdlc/compliance')), false);
    assert.equal(await exists(join(dir, '.sdlc/artifacts/00-discovery/constitution.md')), true);
  });
});
