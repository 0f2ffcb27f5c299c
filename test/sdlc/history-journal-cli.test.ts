import assert from 'node:assert/strict';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { forgetAnchor } from '../helpers/forget-anchor.ts';
import { referencePlugin, runReferenceScript } from '../helpers/reference-scripts.ts';
import { jsonError } from '../helpers/run-cli.ts';
import { tempDir } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

/**
 * Issue 22 for the SDLC history, through the built CLI: every write of state.yaml is an entry of
 * `.sdlc/journal.jsonl`; a history entry written by hand (an advance 0 → 1 with no gate run) is
 * STATE_TAMPERED for status, gate and audit, and nothing is written.
 */
const STATE = '.sdlc/state.yaml';
const JOURNAL = '.sdlc/journal.jsonl';
const cli = (dir: string, ...args: string[]) => runSluice(dir, args, { SLUICE_USER: 'os-user' });
const read = (dir: string, f: string) => readFile(join(dir, f), 'utf8').catch(() => null);
const rows = async (dir: string) =>
  ((await read(dir, JOURNAL)) ?? '')
    .trim()
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));

async function initialised(): Promise<string> {
  const dir = await tempDir('sluice-history-');
  const init = await cli(dir, 'init', '--profile', 'starter', '--name', 'records');
  assert.equal(init.code, 0, init.stdout + init.stderr);
  return dir;
}

/** status, gate and next refuse with `code` (exit 2), audit fails on it (exit 1), and leave state.yaml and the journal as they were. */
async function refusedAndUnchanged(dir: string, code: string, message: RegExp) {
  const before = { state: await read(dir, STATE), journal: await read(dir, JOURNAL) };
  for (const args of [['status'], ['gate'], ['next', '--confirmed']]) {
    const r = await cli(dir, ...args, '--json');
    const error = jsonError(r, 2);
    assert.equal(error.code, code, `${args.join(' ')}: ${r.stdout}`);
    assert.match(error.message, message, args.join(' '));
  }
  // The audit shows the rest of the project too, and fails on the records.
  const audit = await cli(dir, 'audit', '--json');
  assert.equal(audit.code, 1, audit.stdout);
  const records = JSON.parse(audit.stdout).records;
  assert.equal(records.ok, false);
  assert.equal(records.problem.code, code);
  assert.match(records.problem.message, message);
  assert.deepEqual({ state: await read(dir, STATE), journal: await read(dir, JOURNAL) }, before, 'nothing was written');
}

describe('the SDLC history as a journal (CLI)', () => {
  it('init and every gate run are journal entries; status reads the journal as verified', async () => {
    const dir = await initialised();
    assert.deepEqual(
      (await rows(dir)).map((e) => e.row),
      ['init'],
    );
    await cli(dir, 'gate', '--json');
    assert.deepEqual(
      (await rows(dir)).map((e) => e.row),
      ['init', 'gate'],
    );
    const status = JSON.parse((await cli(dir, 'status', '--json')).stdout);
    assert.deepEqual(status.records, { journal: 'journal', entries: 2, anchor: 'verified', foreign: 0 });
    assert.match((await cli(dir, 'status')).stdout, /journal 2 entries, verified/);
  });

  it('a hand-written advance 0 → 1 with no gate run is STATE_TAMPERED for status, gate, audit and next', async () => {
    const dir = await initialised();
    const state = parse((await read(dir, STATE))!);
    // Everything advance_phase.py would change, but no gate run: the entry has no gate_results.
    Object.assign(state, { current_phase: '1', phase_name: 'requirements' });
    Object.assign(state.phases['0'], { status: 'completed', completed_at: '2026-12-01T10:00:00Z' });
    Object.assign(state.phases['1'], { status: 'active', entered_at: '2026-12-01T10:00:00Z' });
    state.history.push({ from: '0', to: '1', at: '2026-12-01T10:00:00Z' });
    await writeFile(join(dir, STATE), stringify(state));
    await refusedAndUnchanged(dir, 'STATE_TAMPERED', /history entry 1 was not written by sluice and cannot be taken: an advance from 0 to 1 with no gate run/);
  });

  it('a phase moved without a history entry, and a journal cut short, are refused', async () => {
    const dir = await initialised();
    await cli(dir, 'gate', '--json');
    const text = (await read(dir, STATE))!;
    await writeFile(join(dir, STATE), text.replace(/current_phase: .*\n/, "current_phase: '1'\n"));
    const moved = jsonError(await cli(dir, 'status', '--json'), 2);
    assert.equal(moved.code, 'STATE_TAMPERED');
    await writeFile(join(dir, STATE), text);
    const journal = (await read(dir, JOURNAL))!;
    await writeFile(join(dir, JOURNAL), `${journal.trim().split('\n')[0]}\n`);
    await refusedAndUnchanged(dir, 'JOURNAL_ROLLED_BACK', /the journal has 1 entries, but this machine anchored it at entry 2/);
    await rm(join(dir, JOURNAL));
    await refusedAndUnchanged(dir, 'JOURNAL_ROLLED_BACK', /the journal is missing/);
  });

  it('a project the reference set up has no journal: status says so, and the first write adopts its history, marked adopted', {
    skip: referencePlugin.skip,
  }, async () => {
    const dir = await tempDir('sluice-ref-history-');
    const r = await runReferenceScript(
      'init_project.py',
      ['--profile', join(referencePlugin.dir!, 'profiles', 'starter', 'profile.yaml'), '--target', dir, '--name', 'ref records'],
      dir,
    );
    assert.equal(r.code, 0, r.stdout + r.stderr);
    const before = JSON.parse((await cli(dir, 'status', '--json')).stdout);
    assert.equal(before.records.journal, 'unjournaled');
    const gate = await cli(dir, 'gate', '--json');
    assert.ok(gate.code === 0 || gate.code === 1, gate.stderr);
    const entries = await rows(dir);
    assert.deepEqual(
      entries.map((e) => [e.row, e.adopted ?? false]),
      [
        ['adopt', true],
        ['gate', false],
      ],
    );
    assert.equal(JSON.parse((await cli(dir, 'status', '--json')).stdout).records.journal, 'journal');
    // The reference's own dashboard still reads the project sluice wrote.
    const status = await runReferenceScript('generate_status.py', ['--state', STATE], dir);
    assert.equal(status.code, 0, status.stderr);
  });

  it('an honest project on a second machine is "unanchored here" until `sluice anchor`', async () => {
    const dir = await initialised();
    await forgetAnchor(join(dir, JOURNAL));
    const status = JSON.parse((await cli(dir, 'status', '--json')).stdout);
    assert.equal(status.records.anchor, 'unanchored');
    assert.match((await cli(dir, 'status')).stdout, /unanchored here/);
    const anchor = jsonError(await cli(dir, 'anchor', '--json'), 1);
    assert.equal(anchor.code, 'ANCHOR_NEEDS_PERSON');
  });
});
