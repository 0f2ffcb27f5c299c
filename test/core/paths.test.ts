import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { realPathInside, resolveInside } from '../../core/paths/inside.ts';

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
});
