import assert from 'node:assert/strict';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createMemoryHost, type Host } from '../../core/index.ts';
import { findExecutable } from '../../delegates/cli-process/find-executable.ts';
import { readUserConfigGrant } from '../../plugins/lifecycle/commit/user-config-grant.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** The user's own files through the Host port: keys and caches private, scratch folders, executables, the real home. */
describe('Host: private files, temp folders, executables, the account', () => {
  const made: string[] = [];
  after(() => Promise.all(made.map((d) => rm(d, { recursive: true, force: true }))));
  const scratch = async () => {
    const d = await mkdtemp(join(tmpdir(), 'sluice-private-'));
    made.push(d);
    return d;
  };

  it('the Node host writes private files owner-only (0600 in a new 0700 folder) and never replaces one when exclusive', async () => {
    const host = createNodeHost();
    const dir = await scratch();
    const key = join(dir, 'new', 'folder', 'grant.key');
    assert.equal(await host.writePrivate(key, 'first\n', { exclusive: true }), true);
    assert.equal((await stat(key)).mode & 0o777, 0o600);
    assert.equal((await stat(join(dir, 'new', 'folder'))).mode & 0o777, 0o700);
    assert.equal(await host.writePrivate(key, 'second\n', { exclusive: true }), false);
    assert.equal(await host.readText(key), 'first\n');
    assert.equal(await host.writePrivate(key, 'third\n'), true, 'without exclusive the file is replaced whole');
    assert.equal(await host.readText(key), 'third\n');
    const info = await host.lstat(key);
    assert.equal(info?.mode, 0o600);
    assert.equal(info?.uid, host.userId());
  });

  it('the Node host makes distinct private temp folders, and tells executables from other files', async () => {
    const host = createNodeHost();
    const [a, b] = [await host.makeTempDir('sluice-t-'), await host.makeTempDir('sluice-t-')];
    made.push(a, b);
    assert.notEqual(a, b);
    assert.match(a, /sluice-t-/);
    assert.equal((await stat(a)).mode & 0o777, 0o700);
    const dir = await scratch();
    await writeFile(join(dir, 'tool'), '#!/bin/sh\n');
    await chmod(join(dir, 'tool'), 0o755);
    await writeFile(join(dir, 'notes'), 'x');
    assert.equal(await host.isExecutable(join(dir, 'tool')), true);
    assert.equal(await host.isExecutable(join(dir, 'notes')), false);
    assert.equal(await host.isExecutable(dir), false, 'a folder is not run');
    assert.equal(await host.isExecutable(join(dir, 'missing')), false);
    assert.equal(await findExecutable(host, 'tool', `/nonexistent:${dir}`, '/'), join(dir, 'tool'));
    assert.equal(await findExecutable(host, 'notes', dir, '/'), undefined);
  });

  it("the Node host's account home is the password database's, whatever $HOME says", () => {
    const saved = process.env.HOME;
    process.env.HOME = '/somewhere/an/agent/chose';
    try {
      assert.equal(createNodeHost().accountHome(), userInfo().homedir);
    } finally {
      process.env.HOME = saved;
    }
  });

  it('the memory host offers the same: modes, exclusive private writes, temp folders, executables, its account', async () => {
    const host = createMemoryHost({ home: '/home/ana', uid: 501, files: { '/bin/tool': '', '/bin/notes': '' }, modes: { '/bin/tool': 0o755 } });
    assert.equal(host.accountHome(), '/home/ana');
    assert.equal(host.userId(), 501);
    assert.equal(await host.writePrivate('/home/ana/.config/sluice/k', 'a', { exclusive: true }), true);
    assert.equal(await host.writePrivate('/home/ana/.config/sluice/k', 'b', { exclusive: true }), false);
    const info = await host.stat('/home/ana/.config/sluice/k');
    assert.deepEqual([info?.kind, info?.size, info?.mode, info?.uid], ['file', 1, 0o600, 501]);
    const t = await host.makeTempDir('x-');
    assert.equal((await host.stat(t))?.kind, 'dir');
    assert.notEqual(await host.makeTempDir('x-'), t);
    assert.equal(await findExecutable(host, 'tool', '/usr/bin:/bin', '/'), '/bin/tool');
    assert.equal(await findExecutable(host, 'notes', '/bin', '/'), undefined);
    assert.equal(await findExecutable(host, './tool', undefined, '/bin'), '/bin/tool');
  });

  it('a user config grant is read only from a private file the user owns, on any host', async () => {
    const grant = 'lifecycle:\n  commitAuthorization:\n    mode: headless-ci\n    owner: ci\n    local_commit_authorized: true\n';
    const check = (host: Host, file: string) => readUserConfigGrant(host, file, '/work/app');
    const host = createMemoryHost({ files: { '/home/user/open.yaml': grant } });
    await host.writePrivate('/home/user/private.yaml', grant);
    assert.equal((await check(host, '/home/user/private.yaml')).grant?.owner, 'ci');
    await assert.rejects(check(host, '/home/user/open.yaml'), { code: 'PRIVATE_FILE_UNSAFE', message: /readable by everyone \(mode 0644\): chmod 600 it/ });
    const other = createMemoryHost({ uid: 7, files: { '/home/user/private.yaml': grant }, modes: { '/home/user/private.yaml': 0o600 } });
    const foreign = { ...other, userId: () => 8 };
    await assert.rejects(check(foreign, '/home/user/private.yaml'), { code: 'PRIVATE_FILE_UNSAFE', message: /belongs to uid 7, not to you \(uid 8\)/ });
    assert.deepEqual(await check(host, '/home/user/missing.yaml'), {});
  });
});
