import assert from 'node:assert/strict';
import { mkdtemp, utimes, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { acquireLock, createMemoryHost, loadConfig, SluiceError } from '../../core/index.ts';
import { parsePlanTasks } from '../../plugins/lifecycle/readers/plan-tasks-reader.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** Reader failures the fuzzing found (beyond the codecs), each kept as the case that found it. */
describe('reader regressions found by fuzzing', () => {
  it('plan.md: a repeated task id is named (the error said only "a task id appears twice")', async () => {
    await assert.rejects(parsePlanTasks('- [ ] [T-001] a\n- [x] [T-002] b\n- [ ] [T-001] c\n', '.prizmkit/specs/x/plan.md'), (e: unknown) => {
      assert.ok(e instanceof SluiceError);
      assert.equal(e.message, 'ARTIFACT_INVALID: .prizmkit/specs/x/plan.md: task id T-001 appears twice');
      return true;
    });
  });

  it('sluice.config.yaml that is not UTF-8 is CONFIG_MALFORMED like bad syntax (it was STATE_CORRUPT, "restore it from version control")', async () => {
    const host = createMemoryHost({ cwd: '/p' });
    await host.mkdir('/p');
    await host.writeAtomic('/p/sluice.config.yaml', new Uint8Array([0x17, 0x97]));
    await assert.rejects(loadConfig(host, '/p'), { code: 'CONFIG_MALFORMED', message: 'CONFIG_MALFORMED: sluice.config.yaml: file is not valid UTF-8' });
  });

  it('a stale lock file naming pid 0 or -1 is taken over (kill(0) and kill(-1) succeed, so it looked alive forever: LOCK_BUSY)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-lock-'));
    for (const pid of [0, -1]) {
      const path = join(dir, `state${pid}.yaml.lock`);
      await writeFile(path, JSON.stringify({ pid, hostname: hostname(), acquiredAt: '2026-01-01T00:00:00.000Z' }));
      const anHourAgo = new Date(Date.now() - 3_600_000);
      await utimes(path, anHourAgo, anHourAgo);
      const lock = await acquireLock(createNodeHost({ cwd: dir }), path, { waitMs: 500 });
      await lock.release();
    }
  });
});
