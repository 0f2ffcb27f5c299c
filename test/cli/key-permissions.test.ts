import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, chownSync, lchownSync, mkdirSync, readdirSync, realpathSync, statSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { signCommitGrant } from '../../plugins/lifecycle/commit/signed-grant.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { cliBundle, runSluice } from '../hardening/cli-bundle.ts';
import { childOutput } from '../helpers/child-output.ts';
import { recordSteps, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { sshKeygenMissing, throwawayKey } from '../helpers/ssh-keys.ts';
import { evidence, GRANT_CONFIG, makeLifecycle, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';

/**
 * Keys are checked as ssh checks them, through the built CLI: a commit-grant key, a user config that
 * grants commits, a signing key or the trust store that someone else could have written (world- or
 * group-writable, another owner) is refused with PRIVATE_FILE_UNSAFE / TRUST_STORE_UNSAFE naming the
 * file and its mode (exit 2), where it used to be used as if the person wrote it.
 *
 * sluice reads the grant key and the user config from the *account* home (the password database's,
 * not $HOME). To point that at a temporary folder, these tests run sluice as a uid with no account,
 * whose account home is $HOME (as in a container): that needs root, and `chown` to make "another
 * owner" needs root too. Without root they skip, saying so.
 */
const NO_ACCOUNT_UID = 54321;
const OTHER_UID = 4243;
const hasAccount = (uid: number) => spawnSync('getent', ['passwd', String(uid)]).status === 0;
const asRoot = process.getuid?.() === 0;
const needsRoot =
  !asRoot || hasAccount(NO_ACCOUNT_UID)
    ? `needs root (to run sluice as uid ${NO_ACCOUNT_UID}, which has no account, so that its account home is a test folder)`
    : false;

function chownTree(path: string, uid: number): void {
  lchownSync(path, uid, uid);
  if (!statSync(path).isDirectory()) return;
  for (const name of readdirSync(path)) chownTree(join(path, name), uid);
}

/** `sluice --cwd DIR ARGS` as the account-less uid, with `home` as its (account) home. */
function sluiceWithoutAccount(dir: string, home: string, args: readonly string[], env: Record<string, string> = {}) {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('XDG_') && !k.startsWith('SLUICE_')));
  const child = spawnReaped(process.execPath, [cliBundle(), '--cwd', dir, ...args], {
    uid: NO_ACCOUNT_UID,
    gid: NO_ACCOUNT_UID,
    env: { ...base, HOME: home, NO_COLOR: '1', SLUICE_NO_CACHE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return childOutput(child);
}

/** A repository with requirement `feat` recorded up to its commit, and a home whose sluice folder is ready. */
async function readyToCommit(): Promise<{ root: string; home: string; folder: string }> {
  const root = await makeRepo();
  const { lc } = await makeLifecycle(root);
  await startRequirement(lc, 'feat', { goal: 'x' });
  await recordSteps(root, lc, 'feat', throughRetrospective('feat'));
  await writeFiles(root, evidence.commitRequest('feat', ['src/feat.js']));
  const home = await mkdtemp(join(tmpdir(), 'sluice-keys-home-'));
  const folder = join(home, '.config', 'sluice');
  mkdirSync(folder, { recursive: true, mode: 0o700 });
  return { root, home, folder };
}

const KEY = 'an-operator-key-0123456789abcdef';
const grantFor = (root: string) =>
  signCommitGrant(
    {
      mode: 'headless-ci',
      owner: 'runner-7',
      local_commit_authorized: true,
      repository: realpathSync(root),
      requirements: ['feat'],
      expires_at: '2099-01-01T00:00:00Z',
    },
    KEY,
  );
/** As root, in a repository the account-less uid owns (git would call it of dubious ownership). */
const commits = (root: string) =>
  Number(execFileSync('git', ['-c', 'safe.directory=*', 'rev-list', '--count', 'HEAD'], { cwd: root, encoding: 'utf8' }).trim());
const errorOf = (stdout: string) => (JSON.parse(stdout) as { error: { code: string; message: string; file?: string } }).error;

describe('keys are checked like ssh checks them', () => {
  it('a world-writable commit-grant key is refused naming the file and the mode; owner-only, the same key commits', { skip: needsRoot }, async () => {
    const { root, home, folder } = await readyToCommit();
    const key = join(folder, 'commit-grant.key');
    writeFileSync(key, `${KEY}\n`);
    chmodSync(key, 0o666);
    chownTree(root, NO_ACCOUNT_UID);
    chownTree(home, NO_ACCOUNT_UID);
    const args = ['lifecycle', 'record', 'feat', 'commit', '--json'];
    const loose = await sluiceWithoutAccount(root, home, args, { SLUICE_COMMIT_GRANT: grantFor(root) });
    assert.equal(loose.code, 2, loose.stderr);
    const e = errorOf(loose.stdout);
    assert.equal(e.code, 'PRIVATE_FILE_UNSAFE');
    assert.match(e.message, new RegExp(`the commit-grant key ${key.replace(/[.]/g, '\\.')} is writable by everyone \\(mode 0666\\)`));
    assert.equal(commits(root), 1, 'nothing was committed');

    chmodSync(key, 0o600);
    const ok = await sluiceWithoutAccount(root, home, args, { SLUICE_COMMIT_GRANT: grantFor(root) });
    assert.equal(ok.code, 0, ok.stdout + ok.stderr);
    assert.equal(commits(root), 2, 'the key in the account home granted the commit');
  });

  it('a commit-grant key owned by another user is refused', { skip: needsRoot }, async () => {
    const { root, home, folder } = await readyToCommit();
    const key = join(folder, 'commit-grant.key');
    writeFileSync(key, `${KEY}\n`, { mode: 0o600 });
    chownTree(root, NO_ACCOUNT_UID);
    chownTree(home, NO_ACCOUNT_UID);
    chownSync(key, OTHER_UID, OTHER_UID);
    const r = await sluiceWithoutAccount(root, home, ['lifecycle', 'record', 'feat', 'commit', '--json'], { SLUICE_COMMIT_GRANT: grantFor(root) });
    assert.equal(r.code, 2, r.stderr);
    assert.equal(errorOf(r.stdout).code, 'PRIVATE_FILE_UNSAFE');
    assert.match(errorOf(r.stdout).message, new RegExp(`commit-grant\\.key belongs to uid ${OTHER_UID}, not to you \\(uid ${NO_ACCOUNT_UID}\\)`));
    assert.equal(commits(root), 1);
  });

  it('a user config that grants commits and everyone can write is refused naming the file and the mode', { skip: needsRoot }, async () => {
    const { root, home, folder } = await readyToCommit();
    const config = join(folder, 'config.yaml');
    writeFileSync(config, GRANT_CONFIG);
    chmodSync(config, 0o666);
    chownTree(root, NO_ACCOUNT_UID);
    chownTree(home, NO_ACCOUNT_UID);
    const r = await sluiceWithoutAccount(root, home, ['lifecycle', 'record', 'feat', 'commit', '--json']);
    assert.equal(r.code, 2, r.stderr);
    assert.equal(errorOf(r.stdout).code, 'PRIVATE_FILE_UNSAFE');
    assert.match(errorOf(r.stdout).message, /the user config .*config\.yaml is writable by everyone \(mode 0666\)/);
    assert.equal(commits(root), 1);
  });

  it('the trust store owned by another user is refused', { skip: asRoot ? false : 'chown to another uid needs root' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-keys-trust-'));
    const home = await mkdtemp(join(tmpdir(), 'sluice-keys-trust-home-'));
    writeFileSync(join(dir, 'plugin.mjs'), 'export default { name: "p", setup() {} };\n');
    writeFileSync(join(dir, 'sluice.config.yaml'), 'plugins: [./plugin.mjs]\n');
    const store = join(home, 'config', 'sluice', 'trust.json');
    mkdirSync(join(home, 'config', 'sluice'), { recursive: true, mode: 0o700 });
    writeFileSync(store, JSON.stringify({ version: 1, projects: {} }), { mode: 0o600 });
    chownSync(store, OTHER_UID, OTHER_UID);
    const r = await runSluice(dir, ['plugins'], { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SLUICE_TRUSTED_HASH: '' });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, new RegExp(`TRUST_STORE_UNSAFE: .*trust\\.json: .*belongs to uid ${OTHER_UID}`));
  });

  it('a signing key others can read, or in a folder others can write, signs nothing', { skip: sshKeygenMissing }, async () => {
    const keys = await mkdtemp(join(tmpdir(), 'sluice-keys-ssh-'));
    const alice = throwawayKey(keys, 'alice', 'alice@example.com');
    const signers = join(keys, 'allowed_signers');
    writeFileSync(signers, `${alice.signersLine}\n`);
    const dir = await mkdtemp(join(tmpdir(), 'sluice-keys-sdlc-'));
    const home = await mkdtemp(join(tmpdir(), 'sluice-keys-sdlc-home-'));
    const env = { HOME: home, XDG_CONFIG_HOME: join(home, 'config') };
    assert.equal((await runSluice(dir, ['init', '--profile', 'enterprise', '--type', 'service', '--allowed-signers', signers], env)).code, 0);
    chmodSync(alice.keyFile, 0o644);
    const readable = await runSluice(dir, ['next', '--sign', alice.keyFile, '--confirmed', '--json'], env);
    assert.equal(readable.code, 2, readable.stdout + readable.stderr);
    assert.equal(errorOf(readable.stdout).code, 'PRIVATE_FILE_UNSAFE');
    assert.match(errorOf(readable.stdout).message, /the signing key .*alice is readable by everyone \(mode 0644\)/);
    chmodSync(alice.keyFile, 0o600);
    chmodSync(keys, 0o777);
    const folder = await runSluice(dir, ['next', '--sign', alice.keyFile, '--confirmed', '--json'], env);
    assert.equal(folder.code, 2);
    assert.match(errorOf(folder.stdout).message, /is in a folder others can write \(mode 0777\)/);
  });
});
