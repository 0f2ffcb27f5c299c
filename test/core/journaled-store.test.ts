import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SluiceError } from '../../core/errors/sluice-error.ts';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { createJournaledStore, type JournalSpec } from '../../core/store/journaled-store.ts';
import { linkHash } from '../../core/store/journal-chain.ts';

/** The kernel's journaled store on an in-memory host: one write path, anchored per user, keyed per entry. */
const JOURNAL = '/project/records.jsonl';
const spec: JournalSpec = {
  path: JOURNAL,
  check: (e, where, _before, isNew) => {
    if (typeof e.n !== 'number') throw new SluiceError(isNew ? 'INVARIANT_VIOLATED' : 'STATE_TAMPERED', { message: `${where} has no n` });
  },
};

function setup(stateHome = '/home/user/.local/state') {
  const host = createMemoryHost({ env: { HOME: '/home/user', XDG_STATE_HOME: stateHome }, files: { '/project/.keep': '' } });
  return { host, store: createJournaledStore({ host }) };
}

async function appendN(store: ReturnType<typeof setup>['store'], count: number) {
  for (let i = 0; i < count; i++)
    await store.append(spec, (current) => ({ entries: [{ at: `t${i}`, n: (current?.entries.length ?? 0) + 1 }], result: undefined }));
}

const code = (c: string) => (e: unknown) => e instanceof SluiceError && e.code === c;

describe('journaled store', () => {
  it('appends keyed entries, anchors the head, and reads the journal back as verified', async () => {
    const { host, store } = setup();
    await appendN(store, 3);
    const loaded = await store.load(spec);
    assert.equal(loaded?.entries.length, 3);
    assert.deepEqual(loaded?.anchoring, { state: 'verified', from: 0 });
    assert.ok(loaded?.entries.every((e) => typeof e.mac === 'string'));
    assert.ok(Object.keys(host.files()).some((f) => f.startsWith('/home/user/.local/state/sluice/anchors/')));
    assert.ok('/home/user/.local/state/sluice/record.key' in host.files());
  });

  it('a cut tail or a deleted journal is JOURNAL_ROLLED_BACK; a recomputed chain or an unkeyed entry STATE_TAMPERED', async () => {
    const { host, store } = setup();
    await appendN(store, 3);
    const text = host.files()[JOURNAL];
    const lines = text.trim().split('\n');
    await host.writeAtomic(JOURNAL, `${lines.slice(0, 2).join('\n')}\n`);
    await assert.rejects(store.load(spec), code('JOURNAL_ROLLED_BACK'));
    await host.remove(JOURNAL);
    await assert.rejects(store.load(spec), code('JOURNAL_ROLLED_BACK'));
    // Line 1 changed and every hash recomputed: a valid chain, but not the anchored one.
    const entries = lines.map((l) => JSON.parse(l));
    entries[0].n = 99;
    let prev = '0'.repeat(64);
    for (const e of entries) {
      e.prev = prev;
      e.hash = linkHash(e);
      prev = e.hash;
    }
    await host.writeAtomic(JOURNAL, `${entries.map((e) => JSON.stringify(e)).join('\n')}\n`);
    await assert.rejects(store.load(spec), code('STATE_TAMPERED'));
    // The honest chain plus one line with a valid hash but no mac.
    const extra: Record<string, unknown> & { prev: string } = { seq: 4, prev: JSON.parse(lines[2]).hash, at: 't4', n: 4 };
    extra.hash = linkHash(extra);
    await host.writeAtomic(JOURNAL, `${text}${JSON.stringify(extra)}\n`);
    await assert.rejects(store.load(spec), code('STATE_TAMPERED'));
    // An append never writes over what it cannot verify.
    await assert.rejects(appendN(store, 1), code('STATE_TAMPERED'));
    assert.equal(host.files()[JOURNAL], `${text}${JSON.stringify(extra)}\n`);
    // A person may accept such a tail (a teammate's entries, pulled): anchor() takes it, and it reads as verified.
    assert.equal((await store.anchor(spec))?.entries, 4);
    assert.deepEqual((await store.load(spec))?.anchoring, { state: 'verified', from: 0 });
  });

  it('another state folder (another machine) reads the journal as unanchored until anchor(); a write there anchors from then on', async () => {
    const { host, store } = setup();
    await appendN(store, 2);
    const other = createJournaledStore({ host: { ...host, env: (n: string) => (n === 'XDG_STATE_HOME' ? '/other/state' : host.env(n)) } });
    assert.deepEqual((await other.load(spec))?.anchoring, { state: 'unanchored' });
    await appendN(other, 1);
    assert.deepEqual((await other.load(spec))?.anchoring, { state: 'verified', from: 2 });
    const anchored = await other.anchor(spec);
    assert.equal(anchored?.entries, 3);
    assert.deepEqual((await other.load(spec))?.anchoring, { state: 'verified', from: 0 });
  });

  it('a new entry that breaks the rules is refused and nothing is written', async () => {
    const { host, store } = setup();
    await appendN(store, 1);
    const before = host.files()[JOURNAL];
    await assert.rejects(
      store.append(spec, () => ({ entries: [{ at: 'x' }], result: undefined })),
      code('INVARIANT_VIOLATED'),
    );
    assert.equal(host.files()[JOURNAL], before);
  });
});
