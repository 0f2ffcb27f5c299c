import assert from 'node:assert/strict';
import { chmod, mkdtemp, readdir, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** An atomic write replaces the file, and the replacement keeps the permission bits the user gave it. */
describe('node host: atomic writes keep the file mode', () => {
  for (const mode of [0o600, 0o755, 0o640]) {
    it(`a ${mode.toString(8)} file stays ${mode.toString(8)}, whatever the umask`, async () => {
      const dir = await mkdtemp(join(tmpdir(), 'sluice-mode-'));
      const path = join(dir, 'helper.sh');
      await writeFile(path, '#!/bin/sh\necho old\n');
      await chmod(path, mode);
      const old = process.umask(0o077);
      try {
        await createNodeHost({ cwd: dir }).writeAtomic(path, '#!/bin/sh\necho new\n');
      } finally {
        process.umask(old);
      }
      assert.equal((await stat(path)).mode & 0o7777, mode);
      assert.deepEqual(await readdir(dir), ['helper.sh'], 'no temp file left');
    });
  }

  it('a new file gets the usual 0644 (less the umask)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-mode-'));
    const old = process.umask(0o022);
    try {
      await createNodeHost({ cwd: dir }).writeAtomic(join(dir, 'new.yaml'), 'a: 1\n');
    } finally {
      process.umask(old);
    }
    assert.equal((await stat(join(dir, 'new.yaml'))).mode & 0o777, 0o644);
  });
});
