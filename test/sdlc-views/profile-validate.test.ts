import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import type { ProfileValidation } from '../../plugins/sdlc-views/profile-validate/run-profile-validate.ts';
import { removeCliBundle, sluice, sluiceJson } from './views-cli.ts';

after(removeCliBundle);
const repo = resolve('.');
const brief = (r: ProfileValidation) => r.violations.map((v) => `${v.file.split('/').pop()}:${v.line} ${v.path}`);

describe('sluice profile validate', () => {
  it('reports every violation of a pack once, with its YAML path and line: schema, phases, gate types, compliance', async () => {
    const r = await sluiceJson<ProfileValidation & { error: { code: string } }>(repo, ['profile', 'validate', 'test/fixtures/sdlc-views/bad-pack']);
    assert.equal(r.code, 2);
    assert.equal(r.doc.error.code, 'PROFILE_INVALID');
    assert.equal(r.doc.valid, false);
    assert.deepEqual(brief(r.doc), [
      'profile.yaml:2 version',
      'profile.yaml:5 company.profile_id',
      'profile.yaml:8 stack.backend.language',
      'profile.yaml:8 stack.backend.framework',
      'profile.yaml:10 quality.coverage_minimum',
      'profile.yaml:11 quality.max_file_lines',
      'profile.yaml:13 quality.evaluation_criteria.0.description',
      'profile.yaml:14 quality.evaluation_criteria.0.phases.1',
      'profile.yaml:16 compliance.frameworks.1',
      'profile.yaml:20 sluice.gates.0.type',
      'soc2-gates.yaml:10 gates.1.phase',
      'soc2-gates.yaml:11 gates.1.id',
      'soc2-gates.yaml:18 gates.2.check_type',
    ]);
    const keys = r.doc.violations.map((v) => `${v.file}|${v.path}|${v.message}`);
    assert.equal(new Set(keys).size, keys.length, 'each violation once');
    assert.match(r.doc.violations.find((v) => v.path === 'stack.backend.framework')!.message, /required key "framework" is missing/);
    assert.match(r.doc.violations.find((v) => v.path === 'sluice.gates.0.type')!.message, /unknown gate type "eslint"; registered types are .*command/);
  });

  it('prints one line per violation for people, file:line:column first', async () => {
    const r = await sluice(repo, ['profile', 'validate', 'test/fixtures/sdlc-views/bad-pack/profile.yaml']);
    assert.equal(r.code, 2);
    assert.match(r.stdout, /^test\/fixtures\/sdlc-views\/bad-pack\/profile\.yaml: 13 violations$/m);
    assert.match(
      r.stdout,
      /^ {2}test\/fixtures\/sdlc-views\/bad-pack\/profile\.yaml:10:21 {2}quality\.coverage_minimum: Invalid type: Expected number but received "80"$/m,
    );
  });

  it('accepts the bundled packs', async () => {
    for (const pack of ['plugins/sdlc/packs/starter', 'plugins/sdlc/packs/enterprise/profile.yaml']) {
      const r = await sluiceJson<ProfileValidation>(repo, ['profile', 'validate', pack]);
      assert.equal(r.code, 0, JSON.stringify(r.doc.violations));
      assert.equal(r.doc.valid, true);
    }
  });

  it('lists every YAML syntax problem and duplicate key, and refuses __proto__', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-profile-'));
    await writeFile(
      join(dir, 'dup.yaml'),
      'version: "1.0"\nversion: "1.1"\ncompany: {name: A, profile_id: a}\ncompany: {}\nstack: {}\nquality: {coverage_minimum: 1}\n',
    );
    const dup = await sluiceJson<ProfileValidation>(dir, ['profile', 'validate', 'dup.yaml']);
    assert.equal(dup.code, 2);
    assert.deepEqual(
      dup.doc.violations.map((v) => v.line),
      [2, 4],
    );
    assert.ok(dup.doc.violations.every((v) => /unique/i.test(v.message)));
    await writeFile(
      join(dir, 'proto.yaml'),
      'version: "1.0"\ncompany: {name: A, profile_id: a}\nstack:\n  __proto__: {polluted: true}\nquality: {coverage_minimum: 1}\n',
    );
    const proto = await sluiceJson<ProfileValidation>(dir, ['profile', 'validate', 'proto.yaml']);
    assert.equal(proto.code, 2);
    assert.deepEqual(brief(proto.doc), ['proto.yaml:4 stack.__proto__']);
    await writeFile(join(dir, 'broken.yaml'), 'version: "1.0\ncompany: [a\n');
    const broken = await sluiceJson<ProfileValidation>(dir, ['profile', 'validate', 'broken.yaml']);
    assert.equal(broken.code, 2);
    assert.ok(broken.doc.violations.length >= 1 && broken.doc.violations.every((v) => v.path === '' && v.line !== undefined));
    const missing = await sluice(dir, ['profile', 'validate', 'nope.yaml']);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /FILE_NOT_FOUND: nope\.yaml/);
    await rm(dir, { recursive: true });
  });
});
