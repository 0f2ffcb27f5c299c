import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { linkHash } from '../../core/index.ts';
import { recordedRequirement, throughRetrospective } from '../helpers/recorded-requirement.ts';
import { jsonError, sluiceEntry } from '../helpers/run-cli.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';

/**
 * Issue 22 through the built CLI: a prefix of a valid chain is a valid chain, and a chain can be
 * recomputed, so the head of every journal is anchored in the person's state folder and each entry
 * carries an HMAC under the person's record key. Every rollback or forgery below is named, and the
 * records are left as they were found.
 */
const STATE = '.prizmkit/state/workflows/feat.json';
const JOURNAL = '.prizmkit/state/journal/feat.jsonl';
const json = (out: string) => JSON.parse(out);
const lifecycle = (root: string, args: string[], env: Record<string, string> = {}) => runSluice(root, ['lifecycle', ...args, '--json'], env);
const read = (root: string, f: string) => readFile(join(root, f), 'utf8').catch(() => null);

/** feat recorded through plan, implement, review and test: five journal entries, anchored on this machine. */
async function recorded() {
  const { root } = await recordedRequirement('feat', throughRetrospective('feat').slice(0, 4));
  return { root, journal: (await read(root, JOURNAL))!, state: (await read(root, STATE))! };
}

/** Runs status and recover; both must refuse with `code`; the records on disk must not change. */
async function refusedAndUnchanged(root: string, code: string, message: RegExp) {
  const before = { journal: await read(root, JOURNAL), state: await read(root, STATE) };
  for (const args of [
    ['status', 'feat'],
    ['recover', 'feat'],
    ['record', 'feat', 'retrospective'],
  ]) {
    const r = await lifecycle(root, args);
    const error = jsonError(r, 2);
    assert.equal(error.code, code, `${args.join(' ')}: ${r.stdout}`);
    assert.match(error.message, message, args.join(' '));
  }
  assert.deepEqual({ journal: await read(root, JOURNAL), state: await read(root, STATE) }, before, 'nothing was written');
}

const lines = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown> & { prev: string; hash: string });
const text = (entries: object[]) => `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`;

describe('anchored records (CLI)', () => {
  it('a journal cut short, with the state file deleted, is JOURNAL_ROLLED_BACK: recover never rebuilds the earlier state', async () => {
    const { root, journal } = await recorded();
    await writeFile(join(root, JOURNAL), text(lines(journal).slice(0, 3)));
    await rm(join(root, STATE));
    await refusedAndUnchanged(root, 'JOURNAL_ROLLED_BACK', /the journal has 3 entries, but this machine anchored it at entry 5/);
    const hint = jsonError(await lifecycle(root, ['status', 'feat']), 2).hint as string;
    assert.match(hint, /never accepted/);
    assert.doesNotMatch(hint, /deletes? the state file/i, 'the hint names no route that accepts a rollback');
  });

  it('state and journal deleted together are JOURNAL_ROLLED_BACK (the anchor remembers them)', async () => {
    const { root } = await recorded();
    await rm(join(root, STATE));
    await rm(join(root, JOURNAL));
    await refusedAndUnchanged(root, 'JOURNAL_ROLLED_BACK', /the journal is missing, but this machine anchored it at entry 5/);
  });

  it('an old copy of journal and state put back is JOURNAL_ROLLED_BACK', async () => {
    const { root } = await recordedRequirement('feat', throughRetrospective('feat').slice(0, 2));
    const old = { journal: (await read(root, JOURNAL))!, state: (await read(root, STATE))! };
    const more = await recordedRequirement('x', []); // a second project must not disturb this one's anchor
    assert.ok(more.root !== root);
    const { writeFiles } = await import('./lifecycle-fixture.ts');
    await writeFiles(root, { '.prizmkit/specs/feat/review-report.md': '# Review\n\n## Final Result\n\n- Verdict: PASS\n- Minor: 0\n- Total: 0\n' });
    assert.equal((await lifecycle(root, ['record', 'feat', 'code-review'])).code, 0);
    await writeFile(join(root, JOURNAL), old.journal);
    await writeFile(join(root, STATE), old.state);
    await refusedAndUnchanged(root, 'JOURNAL_ROLLED_BACK', /an older copy was put back/);
  });

  it('a first line rewritten with the whole chain recomputed is STATE_TAMPERED (the anchored entry differs)', async () => {
    const { root, journal } = await recorded();
    const entries = lines(journal);
    (entries[0].state as Record<string, unknown>).goal = 'something else';
    let prev = '0'.repeat(64);
    for (const e of entries) {
      delete e.mac;
      e.prev = prev;
      e.hash = linkHash(e);
      prev = e.hash;
    }
    await writeFile(join(root, JOURNAL), text(entries));
    const state = json((await read(root, STATE))!);
    state.journal.hash = prev;
    await writeFile(join(root, STATE), `${JSON.stringify(state, null, 2)}\n`);
    await refusedAndUnchanged(root, 'STATE_TAMPERED', /entry 5 is not the one this machine anchored/);
  });

  it('an entry appended with a valid hash but without the record key is STATE_TAMPERED', async () => {
    const { root, journal } = await recorded();
    const entries = lines(journal);
    const last = entries.at(-1)!;
    const forged: Record<string, unknown> & { prev: string; hash: string } = { ...last, seq: 6, prev: last.hash, row: 'unblock:forged', hash: '' };
    delete forged.mac;
    forged.hash = linkHash(forged);
    await writeFile(join(root, JOURNAL), text([...entries, forged]));
    const state = json((await read(root, STATE))!);
    state.journal = { seq: 6, hash: forged.hash };
    await writeFile(join(root, STATE), `${JSON.stringify(state, null, 2)}\n`);
    await refusedAndUnchanged(root, 'STATE_TAMPERED', /entry 6 is not keyed with this person's record key/);
  });

  it('an honest project on a second machine reads "unanchored here"; after `sluice anchor` on a terminal, verified', async () => {
    const { root } = await recorded();
    const here = json((await lifecycle(root, ['status', 'feat'])).stdout).requirements[0].records;
    assert.equal(here.anchor, 'verified');
    const other = { XDG_STATE_HOME: await mkdtemp(join(tmpdir(), 'sluice-second-machine-')) };
    const there = await lifecycle(root, ['status', 'feat'], other);
    assert.equal(there.code, 0, there.stdout);
    assert.equal(json(there.stdout).requirements[0].records.anchor, 'unanchored');
    assert.match((await runSluice(root, ['lifecycle', 'status'], other)).stdout, /unanchored here/);
    // An agent's shell (no terminal) cannot anchor.
    const refused = jsonError(await runSluice(root, ['anchor', '--json'], other), 1);
    assert.equal(refused.code, 'ANCHOR_NEEDS_PERSON');
    assert.equal(json((await lifecycle(root, ['status', 'feat'], other)).stdout).requirements[0].records.anchor, 'unanchored');
    if (spawnSync('script', ['--version']).status !== 0) return void it.skip?.('script(1) is not installed: no terminal to confirm on');
    const tty = spawnSync(
      'script',
      ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(sluiceEntry())} --cwd ${JSON.stringify(root)} anchor`, '/dev/null'],
      {
        input: 'y\n',
        env: { ...process.env, ...other, NO_COLOR: '1' },
        encoding: 'utf8',
        timeout: 60_000,
      },
    );
    assert.match(tty.stdout, /anchored 1 journal\(s\)/, tty.stdout + tty.stderr);
    const after = await runSluice(root, ['lifecycle', 'status'], other);
    assert.match(after.stdout, /journal 5 entries, verified/);
    assert.equal(json((await lifecycle(root, ['status', 'feat'], other)).stdout).requirements[0].records.anchor, 'verified');
  });
});
