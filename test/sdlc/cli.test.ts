import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCliFromSource } from '../helpers/run-cli.ts';
import { data, readState, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';
import { definePlugin, isSluiceError } from '../../core/index.ts';
import type { GateResultEvent, PhaseAdvancedEvent } from '../../plugins/sdlc/sdlc-hooks.ts';
import { sdlcStateFile } from '../../plugins/sdlc/state/state-file.ts';

/**
 * The real CLI in child processes: `init` from source (`node --import=tsx plugins/cli/main.ts`), the
 * rest from the bundle (dist/sluice.mjs), which starts several times faster.
 */
const cli = (dir: string, ...args: string[]) => runSluice(dir, args);
const sluiceFromSource = (dir: string, ...args: string[]) => runCliFromSource(['--cwd', dir, ...args]);
const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');

describe('sluice SDLC commands: every exit code of DESIGN.md through the real CLI', () => {
  it('0 ok, 1 blocked / review required / confirmation required, 2 unknown phase, with --json documents', async () => {
    const dir = await tempDir();
    const init = await sluiceFromSource(dir, 'init', '--profile', 'starter', '--name', 'Claims "Intake"');
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Initialised Claims "Intake" with profile starter/);

    const blocked = await cli(dir, 'gate', '--json');
    assert.equal(blocked.code, 1);
    const gate = JSON.parse(blocked.stdout) as { blocked: boolean; blockers: { id: string; gate: string; severity: string }[] };
    assert.equal(gate.blocked, true);
    // init leaves a starter template per required artifact: present (G1) but not filled in (G2).
    const blocker = gate.blockers.find((b) => b.id === 'G2:constitution.md');
    assert.ok(blocker, gate.blockers.map((b) => b.id).join(', '));
    assert.equal(blocker.gate, 'G2-completeness', 'a blocker is an object: its gate and severity without a second lookup');
    assert.equal(blocker.severity, 'MUST');

    await writeCurrentArtifacts(await sdlcKernel(dir));
    const review = await cli(dir, 'next', '--json');
    assert.equal(review.code, 1);
    const doc = JSON.parse(review.stdout) as { status: string; unapproved: { id: string }[] };
    assert.equal(doc.status, 'review-required');
    assert.equal(doc.unapproved.length, 4);
    const approve = doc.unapproved.flatMap(({ id }) => ['--approve', id]);

    const dryRun = await cli(dir, 'next', ...approve, '--signed-by', 'Ana Ruiz');
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.match(dryRun.stdout, /Dry run complete -- all automated gates passed and 4 manual gates approved/);
    assert.match(await readFile(statePath(dir), 'utf8'), /history: \[\]/, 'a dry run writes nothing');

    const advanced = await cli(dir, 'next', ...approve, '--signed-by', 'Ana Ruiz', '--confirmed', '--json');
    assert.equal(advanced.code, 0, advanced.stderr);
    const moved = JSON.parse(advanced.stdout) as { status: string; next: { id: string }; entry: { approvals: { gate: string; signed_by: string }[] } };
    assert.equal(moved.status, 'advanced');
    assert.equal(moved.next.id, '1');
    assert.deepEqual(moved.entry.approvals.map((a) => a.gate).sort(), doc.unapproved.map((m) => m.id).sort());

    const [unknownPhase, skipUnconfirmed] = await Promise.all([
      cli(dir, 'gate', '--phase', '42'),
      cli(dir, 'skip', '--justification', 'Requirements were signed off elsewhere'),
    ]);
    assert.equal(unknownPhase.code, 2);
    assert.match(unknownPhase.stderr, /PHASE_UNKNOWN: field --phase: unknown phase "42"; phases are 0, 1, 2, 3, build, 7, 8, 9, close/);
    assert.equal(skipUnconfirmed.code, 1);
    assert.match(skipUnconfirmed.stderr, /APPROVAL_REQUIRED/);
    assert.match(await readFile(statePath(dir), 'utf8'), /current_phase: "1"/);
  });

  it('3 when another live process holds the state lock, and the state is untouched', async () => {
    const dir = await tempDir();
    assert.equal((await sluice(await sdlcKernel(dir), 'init')).exitCode, 0);
    await writeFile(join(dir, 'sluice.config.yaml'), 'lockWaitMs: 200\n');
    await writeFile(
      `${statePath(dir)}.lock`,
      JSON.stringify({ pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString(), purpose: 'test holds it' }),
    );
    const before = await readFile(statePath(dir), 'utf8');
    const busy = await cli(dir, 'gate');
    assert.equal(busy.code, 3);
    assert.match(busy.stderr, new RegExp(`LOCK_BUSY: .*locked by process ${process.pid}`));
    assert.equal(await readFile(statePath(dir), 'utf8'), before);
  });

  it('2 for an empty or a truncated state.yaml, and the file is not modified', async () => {
    const [empty, truncated] = await Promise.all([tempDir(), tempDir()]);
    await Promise.all([empty, truncated].map(async (d) => sluice(await sdlcKernel(d), 'init')));
    await writeFile(statePath(empty), '');
    const full = await readFile(statePath(truncated), 'utf8');
    const cut = full.slice(0, Math.floor(full.length / 2));
    await writeFile(statePath(truncated), cut);
    const runs = await Promise.all([cli(empty, 'next', '--confirmed'), cli(truncated, 'gate')]);
    assert.deepEqual(
      runs.map((r) => r.code),
      [2, 2],
    );
    assert.match(runs[0].stderr, /STATE_CORRUPT: \.sdlc\/state\.yaml: file is empty/);
    assert.match(runs[1].stderr, /STATE_(CORRUPT|INVALID): \.sdlc\/state\.yaml/);
    assert.equal(await readFile(statePath(empty), 'utf8'), '');
    assert.equal(await readFile(statePath(truncated), 'utf8'), cut);
    for (const r of runs) assert.equal(r.stderr.trim().split('\n').length, 2, `one error line and its hint: ${r.stderr}`);
  });
});

/** A project at phase 0 with its artifacts written, and the approvals `next` will ask for. */
async function readyProject() {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  await sluice(kernel, 'init');
  await writeCurrentArtifacts(kernel);
  const approve = data<{ unapproved: { id: string }[] }>(await sluice(kernel, 'next')).unapproved.map((m) => m.id);
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
    const freeze = definePlugin({
      name: 'acme-freeze',
      setup: (ctx) => ctx.hook('phase:beforeAdvance', (e) => (e.to === '1' ? 'change freeze until Monday' : undefined)),
    });
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
    assert.deepEqual(
      moves[0].entry.approvals?.map((a) => a.signed_by),
      ['Ana', 'Ana', 'Ana', 'Ana'],
    );
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
