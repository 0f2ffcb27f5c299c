import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { createMemoryHost, HostNotRegularError } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** Frontmatter scans read the top of many files, with a stamp of the very file read. */
describe('Host.readHead', () => {
  let dir = '';
  after(() => rm(dir, { recursive: true, force: true }));

  it('the Node host returns the first bytes and the stat of the file read (inode, times, size)', async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-head-'));
    const file = join(dir, 'spec.md');
    await writeFile(file, '---\nname: x\n---\nbody that is long\n');
    const { data, info } = await createNodeHost().readHead(file, 8);
    assert.equal(new TextDecoder().decode(data), '---\nname');
    const s = await stat(file);
    assert.deepEqual([info.kind, info.size, info.ino, info.mtimeMs, info.ctimeMs], ['file', s.size, s.ino, s.mtimeMs, s.ctimeMs]);
    assert.equal(new TextDecoder().decode((await createNodeHost().readHead(file, 1000)).data), '---\nname: x\n---\nbody that is long\n');
  });

  it('the Node host refuses a FIFO at once instead of waiting for a writer', async () => {
    const fifo = join(dir, 'fifo.md');
    execFileSync('mkfifo', [fifo]);
    await assert.rejects(createNodeHost().readHead(fifo, 8), HostNotRegularError);
  });

  it('the memory host gives the same, with a new inode per write', async () => {
    const host = createMemoryHost({ files: { '/r/a.md': 'abcdef' } });
    const first = await host.readHead('/r/a.md', 3);
    assert.equal(new TextDecoder().decode(first.data), 'abc');
    await host.writeAtomic('/r/a.md', 'ABCDEF');
    const second = await host.readHead('/r/a.md', 3);
    assert.equal(new TextDecoder().decode(second.data), 'ABC');
    assert.notEqual(second.info.ino, first.info.ino);
  });
});
