import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { acquireLock } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

// A state update's lock keeps its file open and checks ownership by inode on release (held-file.ts).
describe('held lock files (Node host)', () => {
  it('creates the file exclusively with its text, and removes it on release', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-held-'));
    const host = createNodeHost();
    const held = await host.createHeld!(join(dir, 'a.lock'), 'mine');
    assert.ok(held);
    assert.equal(await readFile(join(dir, 'a.lock'), 'utf8'), 'mine');
    assert.equal(await host.createHeld!(join(dir, 'a.lock'), 'other'), null, 'a second create is refused');
    await held.removeIfOwn();
    assert.deepEqual(await readdir(dir), []);
  });

  it('leaves alone a lock file that another process made after taking the lock over', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-held-'));
    const path = join(dir, 'state.json.lock');
    const lock = await acquireLock(createNodeHost(), path, { keepOpen: true });
    // What a takeover does: remove the (judged stale) file and create a new one, here with the same text.
    const text = await readFile(path, 'utf8');
    await rm(path);
    await writeFile(path, text);
    await lock.release();
    assert.equal(await readFile(path, 'utf8'), text, 'the newer lock file survives the old holder’s release');
  });

  it('a release after the file is already gone does nothing', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-held-'));
    const path = join(dir, 'x.lock');
    const lock = await acquireLock(createNodeHost(), path, { keepOpen: true });
    await rm(path);
    await lock.release();
    assert.deepEqual(await readdir(dir), []);
  });
});
