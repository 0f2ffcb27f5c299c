import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { definePlugin, isSluiceError } from '../../core/index.ts';
import type { GateResultEvent, PhaseAdvancedEvent } from '../../plugins/sdlc/sdlc-hooks.ts';
import { sdlcStateFile } from '../../plugins/sdlc/state/state-file.ts';
import { data, readState, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');

/** A project at phase 0 with its artifacts written, and the approvals `next` will ask for. */
async function readyProject() {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  await sluice(kernel, 'init');
  await writeCurrentArtifacts(kernel);
  const approve = data<{ unapproved: string[] }>(await sluice(kernel, 'next')).unapproved;
  return { dir, approve };
}

describe('advancing is guarded', () => {
  it('8 parallel `next --confirmed` processes advance exactly once', async () => {
    const { dir, approve } = await readyProject();
    const args = ['next', ...approve.flatMap((id) => ['--approve', id]), '--signed-by', 'Ana', '--confirmed'];
    const runs = await Promise.all(Array.from({ length: 8 }, () => runSluice(dir, args)));
    const codes = runs.map((r) => r.code);
    assert.equal(codes.filter((c) => c === 0).length, 1, JSON.stringify(runs.map((r) => r.stderr.trim())));
    assert.equal(codes.filter((c) => c === 1).length, 7);
    // The losers either saw the phase move while their gates ran, or started after and were blocked in phase 1.
    for (const r of runs.filter((x) => x.code === 1)) assert.match(r.stderr + r.stdout, /PHASE_MOVED: .*the project moved to phase 1|BLOCKED/);
    const state = await readState(await sdlcKernel(dir));
    assert.equal(state.history.length, 1);
    assert.equal(String(state.current_phase), '1');
  });

  it('refuses with PHASE_MOVED, naming the new phase, when another process advanced while gates ran', async () => {
    const { dir, approve } = await readyProject();
    const other = await sdlcKernel(dir);
    let raced = false;
    const racer = definePlugin({
      name: 'test-racer',
      setup(ctx) {
        ctx.hook('gate:result', async () => {
          if (raced) return;
          raced = true;
          const out = await sluice(other, 'next', { approve, signedBy: 'Bo', confirmed: true });
          assert.equal(out.exitCode, 0);
        });
      },
    });
    const slow = await sdlcKernel(dir, { plugins: [racer] });
    const out = await sluice(slow, 'next', { approve, signedBy: 'Ana', confirmed: true });
    assert.equal(out.exitCode, 1);
    assert.equal(out.error?.code, 'PHASE_MOVED');
    assert.match(out.human ?? '', /the project moved to phase 1 while gates for phase 0 ran; nothing was written/);
    const state = await readState(other);
    assert.equal(state.history.length, 1);
    assert.equal(state.history[0].confirmed_by, 'Bo');
  });

  it('a phase:beforeAdvance veto (a reason, or an error) blocks advance and skip, naming the plugin; nothing is written', async () => {
    const { dir, approve } = await readyProject();
    const freeze = definePlugin({ name: 'acme-freeze', setup: (ctx) => ctx.hook('phase:beforeAdvance', (e) => (e.to === '1' ? 'change freeze until Monday' : undefined)) });
    const broken = definePlugin({
      name: 'acme-broken',
      setup: (ctx) =>
        ctx.hook('phase:beforeAdvance', () => {
          throw new Error('policy service unreachable');
        }),
    });
    const before = await readFile(statePath(dir), 'utf8');
    const vetoed = await sluice(await sdlcKernel(dir, { plugins: [freeze] }), 'next', { approve, signedBy: 'Ana', confirmed: true });
    assert.equal(vetoed.exitCode, 1);
    assert.equal(vetoed.error?.code, 'ADVANCE_VETOED');
    assert.match(vetoed.human ?? '', /plugin acme-freeze vetoed 0 → 1: change freeze until Monday/);
    const failed = await sluice(await sdlcKernel(dir, { plugins: [broken] }), 'skip', { justification: 'x', confirmed: true });
    assert.equal(failed.exitCode, 1);
    assert.match(failed.human ?? '', /plugin acme-broken failed .* refused: .*policy service unreachable/);
    assert.equal(await readFile(statePath(dir), 'utf8'), before);
    // Without the veto the same command advances.
    assert.equal((await sluice(await sdlcKernel(dir), 'next', { approve, signedBy: 'Ana', confirmed: true })).exitCode, 0);
  });

  it('observers see each gate type and each transition; a failing observer does not stop the run', async () => {
    const { dir, approve } = await readyProject();
    const gates: GateResultEvent[] = [];
    const moves: PhaseAdvancedEvent[] = [];
    const watcher = definePlugin({
      name: 'watcher',
      setup(ctx) {
        ctx.hook('gate:result', (e) => void gates.push(e));
        ctx.hook('phase:advanced', (e) => void moves.push(e));
        ctx.hook('phase:advanced', () => {
          throw new Error('notifier down');
        });
      },
    });
    const kernel = await sdlcKernel(dir, { plugins: [watcher] });
    const out = await sluice(kernel, 'next', { approve, signedBy: 'Ana', confirmed: true });
    assert.equal(out.exitCode, 0);
    assert.deepEqual(gates.map((g) => g.type).sort(), ['completeness', 'consistency', 'exit-criteria', 'integrity']);
    assert.equal(moves.length, 1);
    assert.equal(moves[0].kind, 'advance');
    assert.deepEqual(moves[0].entry.approvals?.map((a) => a.signed_by), ['Ana', 'Ana', 'Ana', 'Ana']);
    assert.ok(kernel.warnings.some((w) => /notifier down/.test(w.message)));
  });

  it('the store refuses a write that shortens or edits history, or leaves two phases active', async () => {
    const { dir, approve } = await readyProject();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'next', { approve, signedBy: 'Ana', confirmed: true });
    const file = sdlcStateFile(statePath(dir));
    const before = await readFile(statePath(dir), 'utf8');
    const attempts = [
      (s: Awaited<ReturnType<typeof readState>>) => ({ ...s, history: [] }),
      (s: Awaited<ReturnType<typeof readState>>) => ({ ...s, history: [{ ...s.history[0], justification: 'rewritten' }] }),
      (s: Awaited<ReturnType<typeof readState>>) => ({ ...s, phases: { ...s.phases, '0': { ...s.phases['0'], status: 'active' as const } } }),
    ];
    for (const fn of attempts) {
      await assert.rejects(kernel.store.update(file, fn), (e: unknown) => isSluiceError(e, 'INVARIANT_VIOLATED'));
    }
    assert.equal(await readFile(statePath(dir), 'utf8'), before);
  });
});
