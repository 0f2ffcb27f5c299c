import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSluice } from '../hardening/cli-bundle.ts';
import { sshKeygenMissing, throwawayKey } from '../helpers/ssh-keys.ts';

/**
 * `sluice doctor --json` on a project with and without protections: what it reports, and that it
 * exits 1 only when something the project's config or profile requires is missing (or a key sluice
 * would refuse). The account home's own files (grant key, user config) are the machine's: their
 * rows are read, never asserted.
 */
interface Check {
  id: string;
  status: string;
  required: boolean;
  detail: string;
  fix?: string;
}
interface Doctor {
  ok: boolean;
  checks: Check[];
  failing: string[];
}
const ACCOUNT_ROWS = new Set(['key-commit-grant', 'user-config']);

async function project(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-doctor-'));
  execFileSync('git', ['init', '-q'], { cwd: dir });
  const home = await mkdtemp(join(tmpdir(), 'sluice-doctor-home-'));
  return {
    dir,
    env: {
      HOME: home,
      XDG_CONFIG_HOME: join(home, 'config'),
      XDG_STATE_HOME: join(home, 'state'),
      XDG_CACHE_HOME: join(home, 'cache'),
      SLUICE_SIGNING_KEY: '',
      SLUICE_TRUSTED_HASH: '',
    },
  };
}

async function doctor(dir: string, env: Record<string, string>): Promise<{ code: number | null; report: Doctor; byId: (id: string) => Check }> {
  const r = await runSluice(dir, ['doctor', '--json'], env);
  const report = JSON.parse(r.stdout) as Doctor;
  assert.equal(r.code, report.failing.length === 0 ? 0 : 1, `exit code follows failing: ${r.stdout}`);
  return { code: r.code, report, byId: (id) => report.checks.find((c) => c.id === id)! };
}
const failingHere = (d: Doctor) => d.failing.filter((id) => !ACCOUNT_ROWS.has(id));

describe('sluice doctor', () => {
  it('a project without protections: the Claude Code settings are missing, each with the command that fixes it, and nothing required fails', async () => {
    const { dir, env } = await project();
    const { report, byId } = await doctor(dir, env);
    assert.deepEqual(failingHere(report), []);
    for (const id of ['claude-hooks', 'claude-sandbox']) {
      assert.equal(byId(id).status, 'missing');
      assert.equal(byId(id).fix, 'sluice hooks install claude');
    }
    assert.match(byId('os-sandbox').detail, /sandbox: auto/);
    assert.equal(byId('trust-store').status, 'absent');
    assert.equal(byId('outside-settings').status, 'person');
    const human = await runSluice(dir, ['doctor'], env);
    assert.match(human.stdout, /MISSING\s+Claude Code guard and handoff hooks\s+not installed\n\s+fix: sluice hooks install claude/);
  });

  it('after `sluice hooks install claude` the settings are installed and current; a new record folder makes them stale', async () => {
    const { dir, env } = await project();
    assert.equal((await runSluice(dir, ['init'], env)).code, 0);
    assert.equal((await runSluice(dir, ['hooks', 'install', 'claude'], env)).code, 0);
    const installed = await doctor(dir, env);
    assert.equal(installed.byId('claude-hooks').status, 'ok');
    assert.equal(installed.byId('claude-sandbox').status, 'ok');
    mkdirSync(join(dir, '.sdlc', 'journal'));
    const stale = await doctor(dir, env);
    assert.equal(stale.byId('claude-sandbox').status, 'stale');
    assert.match(stale.byId('claude-sandbox').detail, /\.sdlc\/journal/);
    writeFileSync(join(dir, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: false } }));
    assert.equal((await doctor(dir, env)).byId('claude-local-override').status, 'off');
  });

  it('config `sandbox: required` with no OS sandbox on the machine exits 1', async (t) => {
    const { dir, env } = await project();
    writeFileSync(join(dir, 'sluice.config.yaml'), 'sandbox: required\n');
    const probe = await runSluice(dir, ['doctor', '--json'], env);
    if (/field sandbox: unknown setting/.test(probe.stdout)) {
      t.skip('this build has no `sandbox` config key yet (the OS sandbox work adds it)');
      return;
    }
    // A PATH with what the run needs and no bwrap: a machine without the sandbox.
    const bin = await mkdtemp(join(tmpdir(), 'sluice-doctor-path-'));
    for (const tool of ['env', 'sh', 'git']) symlinkSync(execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim(), join(bin, tool));
    const none = await doctor(dir, { ...env, PATH: bin });
    assert.equal(none.code, 1);
    assert.ok(none.report.failing.includes('os-sandbox'));
    assert.equal(none.byId('os-sandbox').status, 'missing');
    assert.match(none.byId('os-sandbox').fix ?? '', /bubblewrap/);
  });

  it('a profile that requires signatures without allowed_signers exits 1; with them it does not', { skip: sshKeygenMissing }, async () => {
    const { dir, env } = await project();
    assert.equal((await runSluice(dir, ['init', '--profile', 'enterprise', '--type', 'service'], env)).code, 0);
    const unsigned = await doctor(dir, env);
    assert.equal(unsigned.code, 1);
    assert.deepEqual(failingHere(unsigned.report), ['signed-approvals']);
    assert.match(unsigned.byId('signed-approvals').fix ?? '', /--allowed-signers/);

    const keys = await mkdtemp(join(tmpdir(), 'sluice-doctor-keys-'));
    const alice = throwawayKey(keys, 'alice', 'alice@example.com');
    writeFileSync(join(keys, 'allowed_signers'), `${alice.signersLine}\n`);
    const signed = (await project()).dir;
    assert.equal(
      (await runSluice(signed, ['init', '--profile', 'enterprise', '--type', 'service', '--allowed-signers', join(keys, 'allowed_signers')], env)).code,
      0,
    );
    const ok = await doctor(signed, { ...env, SLUICE_SIGNING_KEY: alice.keyFile });
    assert.equal(ok.byId('signed-approvals').status, 'ok');
    assert.equal(ok.byId('key-signing').status, 'ok');
    assert.deepEqual(failingHere(ok.report), []);
  });

  it('a trust store others can write is unsafe: exit 1, with the chmod that fixes it', async () => {
    const { dir, env } = await project();
    const store = join(env.XDG_CONFIG_HOME, 'sluice', 'trust.json');
    mkdirSync(join(env.XDG_CONFIG_HOME, 'sluice'), { recursive: true, mode: 0o700 });
    writeFileSync(store, JSON.stringify({ version: 1, projects: {} }));
    chmodSync(store, 0o666);
    const { code, report, byId } = await doctor(dir, env);
    assert.equal(code, 1);
    assert.ok(report.failing.includes('trust-store'));
    assert.equal(byId('trust-store').status, 'unsafe');
    assert.match(byId('trust-store').detail, /mode 0666/);
    assert.equal(byId('trust-store').fix, `chmod 600 ${store}`);
  });
});
