import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { data, readState, sdlcKernel, sluice, tempDir, type Outcome } from './sdlc-fixture.ts';

const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');

/** A fresh starter project and its state text. */
async function project() {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  assert.equal((await sluice(kernel, 'init', { type: 'service' })).exitCode, 0);
  return { dir, kernel, state: await readFile(statePath(dir), 'utf8') };
}

/** Runs `next --confirmed` (and `gate`) on a damaged file: exit 2, a one-line error naming file and field, the file unchanged. */
async function refuses(dir: string, file: string, code: RegExp, field?: RegExp): Promise<Outcome> {
  const kernel = await sdlcKernel(dir);
  const before = await readFile(file, 'utf8');
  for (const run of [() => sluice(kernel, 'next', { confirmed: true }), () => sluice(kernel, 'gate')]) {
    const out = await run();
    assert.equal(out.exitCode, 2, out.human ?? "");
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
    const bomb = 'bomb_a: &a [x, x, x, x, x, x, x, x, x]\nbomb_b: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a]\nbomb_c: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b]\nbomb_d: &d [*c, *c, *c, *c, *c, *c, *c, *c, *c]\nbomb_e: [*d, *d, *d, *d, *d, *d, *d, *d, *d]\n';
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
    const profile = join(dir, '.sdlc', 'profile.yaml');
    await writeFile(profile, `${await readFile(profile, 'utf8')}\nsluice:\n  gates:\n    - id: sast\n      type: acme-sast\n      phases: [0]\n`);
    const out = await refuses(dir, profile, /GATE_TYPE_UNKNOWN/, /sluice\.gates\.0\.type/);
    assert.match(out.human ?? '', /unknown gate type "acme-sast"; registered types are .*integrity/);
  });

  it('an artifact path escaping the project is refused, in the registry and in a compliance file', async () => {
    const { dir } = await project();
    const registry = join(dir, '.sdlc', 'phase-registry.yaml');
    const text = await readFile(registry, 'utf8');
    await writeFile(registry, text.replace('- "constitution.md"\n', '- "../../etc/passwd"\n'));
    await refuses(dir, registry, /REGISTRY_INVALID/, /phases\.0\.artifacts\.required\.0/);
    await writeFile(registry, text);

    const soc2 = await tempDir();
    const k = await sdlcKernel(soc2);
    await sluice(k, 'init', { profile: 'enterprise' });
    const compliance = join(soc2, '.sdlc', 'compliance', 'soc2-gates.yaml');
    const c = await readFile(compliance, 'utf8');
    // Phase 0 has no soc2 checks; put one there that points outside.
    await writeFile(compliance, c.replace('gates:\n', 'gates:\n  - phase: 0\n    id: escape\n    name: Escape\n    check_type: artifact_exists\n    artifact: "../../../../etc/passwd"\n    severity: MUST\n'));
    const out = await refuses(soc2, compliance, /PATH_OUTSIDE_PROJECT/, /gates\.0\.artifact/);
    assert.match(out.human ?? '', /"\.sdlc\/artifacts\/00-discovery\/\.\.\/\.\.\/\.\.\/\.\.\/etc\/passwd" leads outside the project/);
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
  it("reads bare and quoted ids as the same phase, anchors and aliases, map or list gate_results, and keeps extra keys on rewrite", async () => {
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
    assert.equal(data(gate).phase, '1', 'current_phase: 1 is phase "1"');
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
    await writeFile(statePath(dir), state.replace('  "1":\n', '  1:\n    name: requirements\n    status: pending\n    entered_at: null\n    completed_at: null\n  "1":\n'));
    const out = await refuses(dir, statePath(dir), /STATE_CORRUPT/);
    assert.match(out.human ?? '', /duplicate key "1" \(at phases\.1; quoted and bare keys are the same\)/);
  });
});
