import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';
import { sdlcKernel, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

/**
 * The real CLI in child processes: `init` from source (`node --import=tsx plugins/cli/main.ts`), the
 * rest from the same code bundled as dist/ is, which starts several times faster.
 */
const sluice = (dir: string, ...args: string[]) => runSluice(dir, args);
const sluiceFromSource = (dir: string, ...args: string[]) => runCli(['--cwd', dir, ...args]);
const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');

describe('sluice SDLC commands: every exit code of DESIGN.md through the real CLI', () => {
  it('0 ok, 1 blocked / review required / confirmation required, 2 usage and unknown phase, with --json documents', async () => {
    const dir = await tempDir();
    const init = await sluiceFromSource(dir, 'init', '--profile', 'starter', '--name', 'Claims "Intake"');
    assert.equal(init.code, 0, init.stderr);
    assert.match(init.stdout, /Initialised Claims "Intake" with profile starter/);

    const [again, blocked] = await Promise.all([sluice(dir, 'init'), sluice(dir, 'gate', '--json')]);
    assert.equal(again.code, 2);
    assert.match(again.stderr, /PROJECT_EXISTS: \.sdlc\/state\.yaml/);
    assert.equal(blocked.code, 1);
    const gate = JSON.parse(blocked.stdout) as { blocked: boolean; blockers: string[]; summary: { failed: number } };
    assert.equal(gate.blocked, true);
    assert.ok(gate.blockers.includes('G1:constitution.md'));

    await writeCurrentArtifacts(await sdlcKernel(dir));
    const review = await sluice(dir, 'next', '--json');
    assert.equal(review.code, 1);
    const pending = (JSON.parse(review.stdout) as { status: string; unapproved: string[] }).unapproved;
    assert.equal((JSON.parse(review.stdout) as { status: string }).status, 'review-required');
    assert.equal(pending.length, 4);
    const approve = pending.flatMap((id) => ['--approve', id]);

    const [unknownGate, noSigner, dryRun, humanReview] = await Promise.all([
      sluice(dir, 'next', '--approve', 'G7:not-a-gate', '--signed-by', 'Ana', '--confirmed'),
      sluice(dir, 'next', ...approve, '--confirmed'),
      sluice(dir, 'next', ...approve, '--signed-by', 'Ana Ruiz'),
      sluice(dir, 'next', ...approve.slice(0, 2), '--signed-by', 'Ana Ruiz', '--confirmed'),
    ]);
    assert.equal(unknownGate.code, 2);
    assert.match(unknownGate.stderr, /G7:not-a-gate is not a manual gate of phase 0; manual gates: G7:/);
    assert.equal(noSigner.code, 2);
    assert.match(noSigner.stderr, /--approve needs --signed-by/);
    assert.equal(dryRun.code, 0, dryRun.stderr);
    assert.match(dryRun.stdout, /Dry run complete -- all automated gates passed and 4 manual gates approved/);
    assert.equal(humanReview.code, 1);
    assert.match(humanReview.stdout, /REVIEW REQUIRED: 3 manual gates need sign-off/);
    assert.equal((await readFile(statePath(dir), 'utf8')).includes('history: []'), true, 'nothing advanced yet');

    const advanced = await sluice(dir, 'next', ...approve, '--signed-by', 'Ana Ruiz', '--confirmed', '--json');
    assert.equal(advanced.code, 0, advanced.stderr);
    const doc = JSON.parse(advanced.stdout) as { status: string; next: { id: string }; entry: { approvals: { gate: string; signed_by: string }[] } };
    assert.equal(doc.status, 'advanced');
    assert.equal(doc.next.id, '1');
    assert.deepEqual(doc.entry.approvals.map((a) => a.gate).sort(), [...pending].sort());

    const [unknownPhase, reenterUnknown, forwardReentry, skipUnconfirmed, skipNoReason] = await Promise.all([
      sluice(dir, 'gate', '--phase', '42'),
      sluice(dir, 'reenter', '42', '--justification', 'x'),
      sluice(dir, 'reenter', '7', '--justification', 'x'),
      sluice(dir, 'skip', '--justification', 'Requirements were signed off elsewhere'),
      sluice(dir, 'skip', '--confirmed'),
    ]);
    assert.equal(unknownPhase.code, 2);
    assert.match(unknownPhase.stderr, /PHASE_UNKNOWN: field --phase: unknown phase "42"; phases are 0, 1, 2, 3, build, 7, 8, 9, close/);
    assert.equal(reenterUnknown.code, 2);
    assert.match(reenterUnknown.stderr, /PHASE_UNKNOWN/);
    assert.equal(forwardReentry.code, 2);
    assert.match(forwardReentry.stderr, /TRANSITION_INVALID: .*re-entry goes back/);
    assert.equal(skipUnconfirmed.code, 1);
    assert.match(skipUnconfirmed.stderr, /APPROVAL_REQUIRED/);
    assert.equal(skipNoReason.code, 2);
    const state = await readFile(statePath(dir), 'utf8');
    assert.match(state, /current_phase: "1"/);
  });

  it('3 when another live process holds the state lock, and the state is untouched', async () => {
    const dir = await tempDir();
    assert.equal((await sluice(dir, 'init')).code, 0);
    await writeFile(join(dir, 'sluice.config.yaml'), 'lockWaitMs: 200\n');
    await writeFile(`${statePath(dir)}.lock`, JSON.stringify({ pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString(), purpose: 'test holds it' }));
    const before = await readFile(statePath(dir), 'utf8');
    const busy = await sluice(dir, 'gate');
    assert.equal(busy.code, 3);
    assert.match(busy.stderr, new RegExp(`LOCK_BUSY: .*locked by process ${process.pid}`));
    assert.equal(await readFile(statePath(dir), 'utf8'), before);
  });

  it('2 for an empty or truncated state.yaml, a missing project and an unknown profile; files are not modified', async () => {
    const [empty, truncated, missing, unknown] = await Promise.all([tempDir(), tempDir(), tempDir(), tempDir()]);
    await Promise.all([sluice(empty, 'init'), sluice(truncated, 'init')]);
    await writeFile(statePath(empty), '');
    const full = await readFile(statePath(truncated), 'utf8');
    const cut = full.slice(0, Math.floor(full.length / 2));
    await writeFile(statePath(truncated), cut);
    const runs = await Promise.all([sluice(empty, 'next', '--confirmed'), sluice(truncated, 'gate'), sluice(missing, 'next'), sluice(unknown, 'init', '--profile', 'no-such-pack')]);
    assert.deepEqual(runs.map((r) => r.code), [2, 2, 2, 2]);
    assert.match(runs[0].stderr, /STATE_CORRUPT: \.sdlc\/state\.yaml: file is empty/);
    assert.match(runs[1].stderr, /STATE_(CORRUPT|INVALID): \.sdlc\/state\.yaml/);
    assert.match(runs[2].stderr, /PROJECT_MISSING/);
    assert.match(runs[3].stderr, /PROFILE_NOT_FOUND: field --profile: no built-in pack \(starter, enterprise, microsoft-enterprise\)/);
    assert.equal(await readFile(statePath(empty), 'utf8'), '');
    assert.equal(await readFile(statePath(truncated), 'utf8'), cut);
    for (const r of runs) assert.equal(r.stderr.trim().split('\n').length <= 2, true, `one-line error: ${r.stderr}`);
  });
});
