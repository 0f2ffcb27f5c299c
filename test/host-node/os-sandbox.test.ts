import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { BWRAP_PROBE_ARGS, type SandboxPolicy } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/**
 * The Node host's side of the OS sandbox: `spawn` with a policy runs the program in bubblewrap and
 * behaves as without it — a timeout's SIGTERM reaches the program (its trap runs within the grace),
 * not bwrap; a program killed by a signal is reported with that signal, not bwrap's 128+N exit code.
 */
const skip = spawnSync('bwrap', BWRAP_PROBE_ARGS, { stdio: 'ignore' }).status === 0 ? false : 'bubblewrap (bwrap) cannot start a sandbox here';

async function place() {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-host-sandbox-'));
  await mkdir(join(dir, 'records'));
  await writeFile(join(dir, 'records', 'state.yaml'), 'phase: 1\n');
  const policy: SandboxPolicy = {
    rules: [
      { path: join(dir, 'records'), access: 'read' },
      { path: join(dir, 'hooks'), access: 'read', create: 'in-parent' },
      { path: join(dir, 'secret'), access: 'none', create: 'with-parents' },
    ],
  };
  return { dir, policy, host: createNodeHost({ cwd: dir }) };
}

describe('Node host: spawn in the OS sandbox', { skip }, () => {
  it('reports bubblewrap, keeps read-only what the policy says, makes missing folders so they are covered', async () => {
    const { dir, policy, host } = await place();
    assert.equal(await host.sandboxKind?.(), 'bubblewrap');
    const script = 'echo x > records/state.yaml; echo h > hooks/post-commit; ls -A secret; echo ok > free.txt';
    let err = '';
    const r = await host.spawn({ command: 'sh', args: ['-c', script], cwd: dir, sandbox: policy, onStderr: (c) => (err += Buffer.from(c).toString()) });
    assert.equal(r.exitCode, 0);
    assert.match(err, /records\/state\.yaml: Read-only file system/);
    assert.match(err, /hooks\/post-commit: Read-only file system/);
    assert.equal(readFileSync(join(dir, 'records', 'state.yaml'), 'utf8'), 'phase: 1\n');
    assert.equal(existsSync(join(dir, 'hooks', 'post-commit')), false);
    assert.equal(readFileSync(join(dir, 'free.txt'), 'utf8'), 'ok\n');
  });

  it('a timeout sends SIGTERM to the program, which may still finish within the grace period', async () => {
    const { dir, policy, host } = await place();
    const script = `trap 'echo cleaned > ${join(dir, 'trap.txt')}; exit 0' TERM; echo started; while :; do sleep 0.05; done`;
    const r = await host.spawn({ command: 'sh', args: ['-c', script], cwd: dir, sandbox: policy, timeoutMs: 1500, killGraceMs: 5000 });
    assert.equal(r.timedOut, true);
    assert.equal(readFileSync(join(dir, 'trap.txt'), 'utf8'), 'cleaned\n', 'the trap ran: SIGTERM reached the program, not only bwrap');
  });

  it('a folder to hide that this user cannot make (an account home of /nonexistent) is no reason to fail the run', async () => {
    const { dir, policy, host } = await place();
    await writeFile(join(dir, 'not-a-folder'), '');
    const rules = [...policy.rules, { path: join(dir, 'not-a-folder', 'home', '.config', 'sluice'), access: 'none' as const, create: 'with-parents' as const }];
    const r = await host.spawn({ command: 'sh', args: ['-c', 'echo ok > free.txt'], cwd: dir, sandbox: { rules } });
    assert.equal(r.exitCode, 0);
    assert.equal(readFileSync(join(dir, 'free.txt'), 'utf8'), 'ok\n');
  });

  it('a program killed by a signal is reported with that signal', async () => {
    const { dir, policy, host } = await place();
    const r = await host.spawn({ command: 'sh', args: ['-c', 'kill -KILL $$'], cwd: dir, sandbox: policy });
    assert.deepEqual([r.exitCode, r.signal], [null, 'SIGKILL']);
  });
});
