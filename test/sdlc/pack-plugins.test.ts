import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { ACME_GATE_TS, COLLIDING_GATE_MJS, writeAcmePack } from '../helpers/acme-pack.ts';
import { installApiCopy } from '../helpers/install-api-copy.ts';
import { runCli } from '../helpers/run-cli.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/**
 * An org profile pack's own gate plugin (`sluice.plugins` in its profile.yaml), through the built CLI:
 * frozen into .sdlc/plugins/ by `init`, refused by `gate` until the workspace is trusted, then its gate
 * type runs as a profile gate and its own error codes are reported with their exit codes.
 */
const repo = resolve(import.meta.dirname, '../..');

describe('a profile pack with its own gate plugin', () => {
  let tmp: string;
  let env: Record<string, string>;
  before(async () => {
    tmp = await mkdtemp(join(tmpdir(), 'sluice-pack-plugins-'));
    // No trust store of the person running the tests, no CI hash.
    env = { XDG_CONFIG_HOME: join(tmp, 'config'), HOME: join(tmp, 'home'), SLUICE_TRUSTED_HASH: '' };
  });
  after(() => rm(tmp, { recursive: true, force: true }));

  const gateRow = (stdout: string) =>
    (JSON.parse(stdout) as { results: { gate: string; passed: boolean | null; message: string }[] }).results.find((r) => r.gate === 'ACME-license');

  async function newProject(name: string, plugins?: Record<string, string>, gateType?: string): Promise<string> {
    const pack = join(tmp, `${name}-pack`);
    const project = join(tmp, name);
    await mkdir(project, { recursive: true });
    await writeAcmePack(pack, repo, plugins, gateType);
    // As a consumer's project: an ES module package with sluice installed, so the .ts plugin imports `sluice`.
    await writeFile(join(project, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
    await installApiCopy(project);
    // The pack plugin's one other import, installed as the consumer would.
    await symlink(join(repo, 'node_modules/valibot'), join(project, 'node_modules/valibot'), 'dir');
    const init = await runCli(['init', '--profile', pack, '--name', name, '--cwd', project], { env });
    assert.equal(init.code, 0, init.stderr);
    return project;
  }

  it('is frozen at init, refused before trust naming the profile field, and runs once trusted', async () => {
    const project = await newProject('acme');
    assert.ok(existsSync(join(project, '.sdlc/plugins/gates/acme-gate.ts')), 'the plugin is frozen with the profile');
    // Validating the pack runs none of its code: the gate type its plugin adds is not an error there.
    const validated = await runCli(['profile', 'validate', join(tmp, 'acme-pack'), '--cwd', project], { env });
    assert.equal(validated.code, 0, validated.stdout + validated.stderr);

    const refused = await runCli(['gate', '--cwd', project], { env });
    assert.equal(refused.code, 2, refused.stderr);
    const lines = refused.stderr.trim().split('\n');
    assert.match(lines[0], /WORKSPACE_UNTRUSTED.*\.sdlc\/profile\.yaml.*sluice\.plugins\[0\].*\.\/gates\/acme-gate\.ts/);
    assert.match(refused.stderr, /sluice trust/);

    const trusted = { ...env, ...(await trustedEnv(project)) };
    const missing = await runCli(['gate', '--json', '--cwd', project], { env: trusted });
    assert.equal(gateRow(missing.stdout)?.passed, false, missing.stdout.slice(0, 600) || missing.stderr);
    assert.equal(gateRow(missing.stdout)?.message, 'acme: LICENSES.md is missing');

    await writeFile(join(project, 'LICENSES.md'), '# licences\n');
    const present = await runCli(['gate', '--cwd', project], { env: trusted });
    assert.match(present.stdout, /ACME-license/);
    const json = await runCli(['gate', '--json', '--cwd', project], { env: trusted });
    assert.equal(gateRow(json.stdout)?.passed, true);

    // The pack plugin's own error code, with the exit code its catalog gives it.
    await rm(join(project, 'LICENSES.md'));
    await mkdir(join(project, 'LICENSES.md'));
    const own = await runCli(['gate', '--cwd', project], { env: trusted });
    assert.equal(own.code, 1, own.stderr);
    assert.match(own.stderr, /ACME_LICENSE_UNREADABLE.*LICENSES\.md is a folder/);
  });

  it('an edited frozen plugin is refused: it is a frozen file, and no longer the trusted content', async () => {
    const project = await newProject('edited');
    const trusted = { ...env, ...(await trustedEnv(project)) };
    await writeFile(join(project, '.sdlc/plugins/gates/acme-gate.ts'), `${ACME_GATE_TS}\n// changed\n`);
    const r = await runCli(['gate', '--cwd', project], { env: trusted });
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stderr, /FROZEN_MODIFIED.*\.sdlc\/plugins\/gates\/acme-gate\.ts was modified/);
    const stale = await runCli(['trust', '--show', '--json', '--cwd', project], { env: trusted });
    assert.equal((JSON.parse(stale.stdout) as { trusted: boolean }).trusted, false, 'the trusted hash no longer matches');
  });

  it('a plugin path that leaves the pack is refused by init, naming the field', async () => {
    const pack = join(tmp, 'escape-pack');
    const project = join(tmp, 'escape');
    await mkdir(project, { recursive: true });
    await writeAcmePack(pack, repo, { '../outside.ts': ACME_GATE_TS });
    const r = await runCli(['init', '--profile', pack, '--cwd', project], { env });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /PROFILE_INVALID.*profile\.yaml.*sluice\.plugins\.0.*a file inside the pack/);
    assert.equal(existsSync(join(project, '.sdlc')), false, 'nothing was set up');
  });

  it('once its plugins load, a gate type neither they nor sluice register is still an error', async () => {
    const project = await newProject('typo', undefined, 'acme-licence');
    const r = await runCli(['gate', '--cwd', project], { env: { ...env, ...(await trustedEnv(project)) } });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /GATE_TYPE_UNKNOWN.*sluice\.gates\.0\.type.*"acme-licence".*acme-license/);
  });

  it("a pack plugin claiming another plugin's prefix and code is reported at load, naming both", async () => {
    const project = await newProject('clash', { './gates/acme-gate.ts': ACME_GATE_TS, './gates/clash.mjs': COLLIDING_GATE_MJS });
    const r = await runCli(['gate', '--cwd', project], { env: { ...env, ...(await trustedEnv(project)) } });
    assert.notEqual(r.code, 0);
    assert.match(r.stderr, /PLUGIN_ERROR_CODE_(COLLISION|PREFIX).*acme-clash.*acme-pack|PLUGIN_ERROR_CODE_(COLLISION|PREFIX).*acme-pack.*acme-clash/);
  });
});
