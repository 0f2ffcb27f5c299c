import assert from 'node:assert/strict';
import { chmod, chown, mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { checkPrivateFile, isSluiceError, protectedUserFolders, userFolders } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

const refusal = (pattern: RegExp) => (e: unknown) => isSluiceError(e) && e.code === 'PRIVATE_FILE_UNSAFE' && pattern.test(e.message);

/** Keys and user files are judged as ssh judges ~/.ssh: the user's own, owner-only, in a private folder. */
describe('checkPrivateFile: a key counts only if nobody else could have written it', () => {
  const made: string[] = [];
  after(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));
  const host = createNodeHost();
  const keyIn = async (mode: number, dirMode = 0o700) => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-keycheck-'));
    made.push(dir);
    await chmod(dir, dirMode);
    const key = join(dir, 'commit-grant.key');
    await writeFile(key, 'k\n');
    await chmod(key, mode);
    return key;
  };

  it('accepts an owner-only key and says nothing of a missing one', async () => {
    const key = await keyIn(0o600);
    assert.equal((await checkPrivateFile(host, key, { what: 'the commit-grant key', secret: true }))?.kind, 'file');
    assert.equal(await checkPrivateFile(host, `${key}.absent`, { what: 'the commit-grant key' }), null);
  });

  it('refuses a world- or group-writable key, naming the file and the mode', async () => {
    const world = await keyIn(0o666);
    await assert.rejects(
      checkPrivateFile(host, world, { what: 'the commit-grant key' }),
      refusal(new RegExp(`${world} is writable by everyone \\(mode 0666\\)`)),
    );
    const group = await keyIn(0o620);
    await assert.rejects(checkPrivateFile(host, group, { what: 'the commit-grant key' }), refusal(/writable by its group \(mode 0620\)/));
  });

  it('refuses a secret others can read, and a key in a folder others can write', async () => {
    await assert.rejects(checkPrivateFile(host, await keyIn(0o644), { what: 'the queue key', secret: true }), refusal(/readable by everyone \(mode 0644\)/));
    assert.ok(await checkPrivateFile(host, await keyIn(0o644), { what: 'a user config' }), 'a non-secret file may be readable');
    await assert.rejects(
      checkPrivateFile(host, await keyIn(0o600, 0o777), { what: 'the commit-grant key' }),
      refusal(/in a folder others can write \(mode 0777\)/),
    );
  });

  it('refuses a key owned by another user, and judges a symlink by what it names', {
    skip: process.getuid?.() === 0 ? false : 'chown needs root',
  }, async () => {
    const key = await keyIn(0o600);
    await chown(key, 4242, 4242);
    await assert.rejects(checkPrivateFile(host, key, { what: 'the commit-grant key' }), refusal(/belongs to uid 4242/));
    const open = await keyIn(0o666);
    const link = join(await mkdtemp(join(tmpdir(), 'sluice-keylink-')), 'k');
    made.push(join(link, '..'));
    await symlink(open, link);
    await assert.rejects(checkPrivateFile(host, link, { what: 'the commit-grant key' }), refusal(/writable by everyone/));
  });

  it('refuses a folder where a key should be', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-keycheck-'));
    made.push(dir);
    await mkdir(join(dir, 'k'), { mode: 0o700 });
    await chmod(dir, 0o700);
    await assert.rejects(checkPrivateFile(host, join(dir, 'k'), { what: 'the signing key' }), refusal(/is a folder, not a regular file/));
  });
});

describe("userFolders: one answer for where sluice keeps the person's files", () => {
  const env = (vars: Record<string, string>) => (name: string) => vars[name];
  it('follows XDG (absolute values only), then HOME, then the account home', () => {
    const f = userFolders(env({ HOME: '/h', XDG_CONFIG_HOME: '/x/conf', XDG_STATE_HOME: 'relative' }), () => '/acct');
    assert.deepEqual({ ...f }, { config: '/x/conf/sluice', state: '/h/.local/state/sluice', cache: '/h/.cache/sluice', account: '/acct/.config/sluice' });
    assert.equal(userFolders(env({}), () => '/acct').config, '/acct/.config/sluice');
    assert.equal(userFolders(env({ SLUICE_CACHE_DIR: '/tmp/c' }), () => '/acct').cache, '/tmp/c/parsed');
  });
  it("protects every folder sluice reads from, the account home's too, whatever the environment says", () => {
    const all = protectedUserFolders(env({ HOME: '/h', XDG_CONFIG_HOME: '/x/conf' }), () => '/acct');
    for (const dir of [
      '/x/conf/sluice',
      '/acct/.config/sluice',
      '/h/.local/state/sluice',
      '/acct/.local/state/sluice',
      '/h/.cache/sluice',
      '/acct/.cache/sluice',
    ])
      assert.ok(all.includes(dir), dir);
    assert.equal(new Set(all).size, all.length);
  });
});
