import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import type { SluiceError } from '../../core/index.ts';
import { checkpointIndex, cloneGitDir, cloneRemote, localRefShas } from '../../plugins/lifecycle/remote/remote-git.ts';
import { gitIn, makeRepo, writeFiles } from './lifecycle-fixture.ts';

const RECORDS = ['.prizmkit/state/journal/alpha.jsonl', '.prizmkit/state/workflows/alpha.json'];

/** The checkpoint tree computed from scratch (a new index read from `head`), as every checkpoint once was. */
function freshTree(root: string, head: string): string {
  const env = { ...process.env, LC_ALL: 'C', GIT_INDEX_FILE: join(root, '.git', 'fresh-test.index') };
  const run = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8', env });
  try {
    run('read-tree', head);
    run('add', '-A', '--', ':(top)', ':(top,exclude,glob)[.]sluice/**');
    run('add', '-f', '--', ...RECORDS);
    return run('write-tree').trim();
  } finally {
    execFileSync('rm', ['-f', env.GIT_INDEX_FILE]);
  }
}

const files = (root: string, tree: string) => gitIn(root, 'ls-tree', '-r', '--name-only', tree).trim().split('\n');

describe('checkpoint trees from the job-long private index', () => {
  it('hold the workspace exactly as a tree built from scratch would, stage after stage and after the commit, without touching the real index', async () => {
    const root = await makeRepo({ 'a.txt': 'a\n', 'src/b.js': 'b\n' });
    const host = createNodeHost({ cwd: root });
    const base = gitIn(root, 'rev-parse', 'HEAD').trim();
    const realIndex = await readFile(join(root, '.git', 'index'));
    const trees = checkpointIndex(host, root, cloneGitDir(root), RECORDS);
    const check = async (head: string) => {
      const tree = await trees.tree(head);
      assert.equal(tree, freshTree(root, head));
      return tree;
    };

    // Stage 1: a changed file, a new one, ignored output, the records.
    await writeFiles(root, {
      'a.txt': 'a changed\n',
      'c.txt': 'new\n',
      'build/out.js': 'ignored\n',
      [RECORDS[0]]: '{"seq":1}\n',
      [RECORDS[1]]: '{"status":"planned"}\n',
    });
    const first = await check(base);
    assert.deepEqual(files(root, first), ['.gitignore', RECORDS[0], RECORDS[1], 'README.md', 'a.txt', 'c.txt', 'src/b.js']);

    // Stage 2: a file the last checkpoint held is deleted, another changes, the records grow.
    await rm(join(root, 'c.txt'));
    await rm(join(root, 'a.txt'));
    await writeFiles(root, { 'src/b.js': 'b changed\n', [RECORDS[0]]: '{"seq":1}\n{"seq":2}\n' });
    const second = await check(base);
    assert.deepEqual(files(root, second), ['.gitignore', RECORDS[0], RECORDS[1], 'README.md', 'src/b.js']);
    assert.match(gitIn(root, 'show', `${second}:src/b.js`), /b changed/);

    // Nothing changed: the same tree (the job pushes nothing new).
    assert.equal(await check(base), second);
    assert.deepEqual(await readFile(join(root, '.git', 'index')), realIndex, 'the real index is never written');

    // The commit moves HEAD: the next tree is read from it (it tracks a file .gitignore would leave out).
    gitIn(root, 'add', '-A', '--', 'src/b.js', 'a.txt');
    gitIn(root, 'add', '-f', '--', 'build/out.js');
    gitIn(root, 'commit', '-q', '-m', 'the requirement');
    const commit = gitIn(root, 'rev-parse', 'HEAD').trim();
    await writeFiles(root, { [RECORDS[1]]: '{"status":"COMMITTED"}\n' });
    const last = await check(commit);
    assert.deepEqual(files(root, last), ['.gitignore', RECORDS[0], RECORDS[1], 'README.md', 'build/out.js', 'src/b.js']);

    await trees.dispose();
    assert.equal(existsSync(join(root, '.git', 'sluice-checkpoint.index')), false, 'the private index is removed with the job');
  });

  it('leave sluice’s runtime folder out whether or not the project ignores it (git refuses a literal pathspec naming an ignored folder)', async () => {
    for (const ignore of ['/.sluice/\n', 'build/\n']) {
      const root = await makeRepo({});
      await writeFiles(root, { '.gitignore': ignore });
      gitIn(root, 'commit', '-q', '-am', 'ignore rules');
      const head = gitIn(root, 'rev-parse', 'HEAD').trim();
      await writeFiles(root, {
        '.sluice/transcripts/run.log': 'machine-local\n',
        'docs/.sluice/kept.txt': 'a project file\n',
        [RECORDS[0]]: '{}\n',
        [RECORDS[1]]: '{}\n',
      });
      const trees = checkpointIndex(createNodeHost({ cwd: root }), root, cloneGitDir(root), RECORDS);
      const tree = await trees.tree(head);
      await trees.dispose();
      assert.deepEqual(files(root, tree), ['.gitignore', RECORDS[0], RECORDS[1], 'README.md', 'docs/.sluice/kept.txt'], `.gitignore: ${ignore.trim()}`);
    }
  });
});

describe('a job clone brings its own checkpoint along', () => {
  it('reads its requirement’s checkpoint and branch from the clone, never a checkpoint of a slug it is a prefix of, and commits as the job’s identity', async () => {
    const root = await makeRepo({ 'a.txt': 'a\n' });
    const host = createNodeHost({ cwd: root });
    const remote = join(await mkdtemp(join(tmpdir(), 'sluice-remote-')), 'project.git');
    gitIn(root, 'clone', '-q', '--bare', root, remote);
    const base = gitIn(root, 'rev-parse', 'HEAD').trim();
    const other = gitIn(root, 'commit-tree', `${base}^{tree}`, '-p', base, '-m', 'alpha-2 checkpoint').trim();
    gitIn(root, 'push', '-q', remote, `${other}:refs/sluice/checkpoints/alpha-2`);
    const workdir = await mkdtemp(join(tmpdir(), 'sluice-workdir-'));
    const refs = ['refs/sluice/checkpoints/alpha', 'refs/remotes/origin/sluice/alpha'];

    const first = join(workdir, 'first');
    await cloneRemote(host, workdir, remote, first, { alsoFetch: [refs[0]], identity: { name: 'Orchestrator Person', email: 'person@example.invalid' } });
    assert.deepEqual(await localRefShas(host, first, refs), [null, null], 'no checkpoint of alpha yet: alpha-2’s is not taken for it');
    assert.equal(gitIn(first, 'config', 'user.name').trim(), 'Orchestrator Person');
    assert.equal(gitIn(first, 'config', 'user.email').trim(), 'person@example.invalid');
    assert.equal(gitIn(first, 'config', 'maintenance.auto').trim(), 'false', 'no housekeeping in a clone that lives for one job');

    const mine = gitIn(root, 'commit-tree', `${base}^{tree}`, '-p', base, '-m', 'alpha checkpoint').trim();
    gitIn(root, 'push', '-q', remote, `${mine}:refs/sluice/checkpoints/alpha`, `${base}:refs/heads/sluice/alpha`);
    const second = join(workdir, 'second');
    await cloneRemote(host, workdir, remote, second, { alsoFetch: [refs[0]] });
    assert.deepEqual(await localRefShas(host, second, refs), [mine, base]);
    assert.equal(gitIn(second, 'cat-file', '-t', mine).trim(), 'commit', 'the checkpoint’s objects came with the clone');

    await assert.rejects(
      cloneRemote(host, workdir, remote, join(workdir, 'third'), { identity: { name: 'Eve <x>', email: 'e@example.invalid' } }),
      (e: SluiceError) => e.code === 'USAGE' && /user\.name is not a git identity/.test(e.message),
    );
    assert.equal(existsSync(join(workdir, 'third')), false, 'nothing is cloned for a refused identity');
  });
});
