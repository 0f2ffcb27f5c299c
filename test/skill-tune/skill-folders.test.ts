import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { isSluiceError } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { copyTree, diffTrees, listTree, syncTree } from '../../plugins/skill-tune/skill-folders.ts';

async function tree(root: string, files: Record<string, string>) {
  for (const [path, text] of Object.entries(files)) {
    await mkdir(join(root, path, '..'), { recursive: true });
    await writeFile(join(root, path), text);
  }
}

describe('skill folder copies', () => {
  it('syncs a folder to be identical, touching only what differs and dropping emptied folders', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sluice-tune-tree-'));
    const host = createNodeHost({ cwd: root });
    await tree(join(root, 'from'), { 'SKILL.md': 'new', 'refs/a.md': 'same', 'refs/b.md': 'added' });
    await tree(join(root, 'to'), { 'SKILL.md': 'old', 'refs/a.md': 'same', 'extra/deep/x.md': 'stale' });
    const changes = await syncTree(host, join(root, 'from'), join(root, 'to'));
    assert.deepEqual(changes, { added: ['refs/b.md'], modified: ['SKILL.md'], removed: ['extra/deep/x.md'] });
    assert.deepEqual(await listTree(host, join(root, 'to')), ['SKILL.md', 'refs/a.md', 'refs/b.md']);
    assert.deepEqual((await readdir(join(root, 'to'))).sort(), ['SKILL.md', 'refs']);
    assert.equal(await readFile(join(root, 'to/SKILL.md'), 'utf8'), 'new');
    assert.deepEqual(await diffTrees(host, join(root, 'from'), join(root, 'to')), { added: [], modified: [], removed: [] });
  });

  it('refuses to snapshot a skill holding a symlink, naming it', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sluice-tune-tree-'));
    const host = createNodeHost({ cwd: root });
    await tree(join(root, 'skill'), { 'SKILL.md': 'x' });
    await symlink('/etc/passwd', join(root, 'skill', 'leak'));
    await assert.rejects(copyTree(host, join(root, 'skill'), join(root, 'copy')), (e) => isSluiceError(e, 'SKILL_INVALID') && /skill\/leak/.test(e.message));
    assert.deepEqual(await listTree(host, join(root, 'skill'), { special: 'skip' }), ['SKILL.md']);
  });
});
