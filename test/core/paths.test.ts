import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { normalize, relative, resolve } from 'pathe';
import { normalizePath, resolveUnder } from '../../core/paths/plain-path.ts';
import { isInside, realPathInside, resolveInside } from '../../core/paths/inside.ts';

describe('paths stay inside the project', () => {
  it('resolves relative paths against the root', () => {
    assert.equal(resolveInside('/project', 'a/b.md'), '/project/a/b.md');
    assert.equal(resolveInside('/project', './a/../b.md'), '/project/b.md');
  });

  it('refuses traversal, absolute paths elsewhere and NUL bytes', () => {
    for (const bad of ['../../etc/passwd', '/etc/passwd', 'a/../../x', '/project-other/x', 'a\0b']) {
      assert.throws(() => resolveInside('/project', bad, 'artifact'), { code: 'PATH_OUTSIDE_PROJECT', exitCode: 2 }, bad);
    }
  });

  it('accepts a path that does not exist yet when its parents are inside', async () => {
    const host = createMemoryHost({ files: { '/project/a/x.md': 'x' } });
    assert.equal(await realPathInside(host, '/project', 'a/new/file.md'), '/project/a/new/file.md');
  });

  it('judges inside exactly as a path.relative walk does, on roots and paths of every shape', () => {
    // The old definition, which resolved both paths again; the fast path must agree with it.
    const byRelative = (root: string, full: string) => {
      const rel = relative(root, full);
      return rel === '' || (!rel.startsWith('..') && !/^([A-Za-z]:)?\//.test(rel));
    };
    const roots = ['/', '/project', '/project/', '/pro', 'C:/work', 'C:\\work\\', 'c:/work'];
    const tails = ['', '/', '/a', '/a/b.md', '/./a', '/a/../b', '/../x', '-other/x', 'x', '/a/', '/..', '/../project/a'];
    let compared = 0;
    for (const root of roots) {
      for (const tail of tails) {
        const full = `${root}${tail}`;
        assert.equal(isInside(root, full), byRelative(root, full), `${root} ~ ${full}`);
        compared++;
      }
      assert.equal(isInside(root, 'D:/elsewhere'), false, `${root} ~ another drive`);
    }
    assert.equal(compared, roots.length * tails.length);
    // Where the two differ on purpose: a name that merely starts with two dots is inside.
    assert.equal(isInside('/project', '/project/..notes.md'), true);
  });

  it('normalizes and resolves exactly as pathe does, shortcut or not, over 4000 generated paths', () => {
    // A fixed-seed generator (xorshift), so a failure names a path that reproduces.
    let seed = 0x9e3779b9;
    const next = () => ((seed ^= seed << 13), (seed ^= seed >>> 17), (seed ^= seed << 5), (seed >>> 0) / 2 ** 32);
    const parts = ['a', 'bc', '.', '..', '...', '.git', '..x', '', 'C:', 'c:', '\\', 'd e', 'x.md'];
    const gen = () => {
      const n = 1 + Math.floor(next() * 5);
      const segs = Array.from({ length: n }, () => parts[Math.floor(next() * parts.length)]);
      const lead = ['/', '', '//', 'C:/', './'][Math.floor(next() * 5)];
      return `${lead}${segs.join(next() < 0.9 ? '/' : '\\')}${next() < 0.2 ? '/' : ''}`;
    };
    for (let i = 0; i < 4000; i++) {
      const a = gen();
      const b = gen();
      assert.equal(normalizePath(a), normalize(a), `normalize ${JSON.stringify(a)}`);
      if (!b.startsWith('/')) assert.equal(resolveUnder(a, b), resolve(a, b), `resolve ${JSON.stringify(a)} ${JSON.stringify(b)}`);
    }
  });
});
