import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as v from 'valibot';
import { createMemoryHost } from '../../core/host/memory-host.ts';
import { createStateStore } from '../../core/store/state-store.ts';
import { createKeyedMutex } from '../../core/queue/keyed-mutex.ts';
import { yamlCodec } from '../../core/store/codec.ts';
import { SluiceError } from '../../core/errors/sluice-error.ts';

const Counter = v.looseObject({
  count: v.pipe(v.number(), v.integer(), v.minValue(0)),
  history: v.array(v.string()),
});
const file = {
  path: '/project/state.yaml',
  schema: Counter,
  codec: yamlCodec,
  invariant: (before: v.InferOutput<typeof Counter>, after: v.InferOutput<typeof Counter>) =>
    after.history.length < before.history.length ? 'history is append-only' : undefined,
};

function setup(text = 'count: 1\nhistory: [a]\nowner: team-x\n') {
  const host = createMemoryHost({ files: { '/project/state.yaml': text } });
  const store = createStateStore({ host, lockWaitMs: 50, display: (p) => p.replace('/project/', '') });
  return { host, store };
}

type Counter = v.InferOutput<typeof Counter>;

/** Asserts that `update` of the file holding `text` (setup's default when undefined) is refused as `expected`, writing nothing. */
async function refusedUpdate(text: string | undefined, update: (s: Counter) => Counter, expected: Parameters<typeof assert.rejects>[1]) {
  const { host, store } = setup(text);
  await assert.rejects(store.update(file, update), expected);
  assert.equal(host.writes('/project/state.yaml'), 0);
  return host;
}

describe('state store', () => {
  it('applies a pure update, validates it and writes it, keeping unknown keys', async () => {
    const { host, store } = setup();
    const r = await store.update(file, (s) => ({ ...s, count: s.count + 1, history: [...s.history, 'b'] }));
    assert.equal(r.written, true);
    const text = host.files()['/project/state.yaml'];
    assert.match(text, /count: 2/);
    assert.match(text, /owner: team-x/);
    assert.equal(host.files()['/project/state.yaml.lock'], undefined, 'lock released');
  });

  it('reports a corrupt file with exit code 2, naming file and line, and never writes it', async () => {
    const host = await refusedUpdate(
      'count: [1, 2\nhistory: x',
      (s) => s,
      (e: unknown) => {
        assert.ok(e instanceof SluiceError);
        assert.equal(e.code, 'STATE_CORRUPT');
        assert.equal(e.exitCode, 2);
        assert.equal(e.file, 'state.yaml');
        assert.match(e.field ?? '', /line \d+/);
        return true;
      },
    );
    assert.equal(host.files()['/project/state.yaml'], 'count: [1, 2\nhistory: x');
  });

  it('reports an empty or truncated file as corrupt, not as a valid empty state', async () => {
    await refusedUpdate('', (s) => s, { code: 'STATE_CORRUPT', message: /empty/ });
  });

  it('names the field that breaks the schema', async () => {
    await refusedUpdate('count: -3\nhistory: []\n', (s) => s, { code: 'STATE_INVALID', field: 'count' });
  });

  it('refuses an update that produces an invalid value, writing nothing', async () => {
    await refusedUpdate(undefined, (s) => ({ ...s, count: 'many' as unknown as number }), { code: 'INVARIANT_VIOLATED', field: 'count' });
  });

  it('refuses an update that breaks an invariant (history shortened)', async () => {
    await refusedUpdate(undefined, (s) => ({ ...s, history: [] }), { code: 'INVARIANT_VIOLATED', message: /append-only/ });
  });

  it('writes nothing when the update returns the same object', async () => {
    const { host, store } = setup();
    const r = await store.update(file, (s) => s);
    assert.equal(r.written, false);
    assert.equal(host.writes('/project/state.yaml'), 0);
  });

  it('refuses a YAML alias bomb instead of expanding it', async () => {
    const bomb = [
      'a: &a [x,x,x,x,x,x,x,x,x]',
      'b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]',
      'c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]',
      'd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]',
      'e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]',
      'count: 1',
      'history: []',
    ].join('\n');
    const { store } = setup(bomb);
    await assert.rejects(store.read(file), { code: 'STATE_CORRUPT', message: /alias/i });
  });

  it('treats __proto__ keys as plain data, never as a prototype', async () => {
    const { store } = setup('count: 1\nhistory: []\n__proto__: { polluted: true }\n');
    const s = await store.read(file);
    assert.equal(({} as Record<string, unknown>).polluted, undefined);
    assert.equal(Object.getPrototypeOf(s), Object.prototype);
  });

  it('a missing file is STATE_MISSING unless an initial value is given', async () => {
    const host = createMemoryHost({ files: { '/project/.keep': '' } });
    const store = createStateStore({ host });
    await assert.rejects(
      store.update(file, (s) => s),
      { code: 'STATE_MISSING' },
    );
    const r = await store.update(file, (s) => ({ ...s, count: s.count + 5 }), { initial: () => ({ count: 0, history: [] }) });
    assert.equal(r.after.count, 5);
  });

  it('create refuses to replace an existing file unless asked', async () => {
    const { store } = setup();
    await assert.rejects(store.create(file, { count: 0, history: [] }), { code: 'STATE_EXISTS' });
    await store.create(file, { count: 0, history: [] }, { overwrite: true });
    assert.equal((await store.read(file)).count, 0);
  });

  it('takes over a lock left by a dead process', async () => {
    const { host, store } = setup();
    host.files();
    await host.writeExclusive('/project/state.yaml.lock', JSON.stringify({ pid: 999_999, hostname: host.hostname(), acquiredAt: '2026-01-01T00:00:00Z' }));
    const r = await store.update(file, (s) => ({ ...s, count: 9 }));
    assert.equal(r.after.count, 9);
    assert.equal(host.files()['/project/state.yaml.lock'], undefined);
  });

  it('waits for a live holder, then fails with LOCK_BUSY (exit 3) naming its pid', async () => {
    const { host, store } = setup();
    host.livePids.add(31337);
    await host.writeExclusive(
      '/project/state.yaml.lock',
      JSON.stringify({ pid: 31337, hostname: host.hostname(), acquiredAt: '2026-01-01T00:00:00Z', purpose: 'sluice next' }),
    );
    await assert.rejects(
      store.update(file, (s) => ({ ...s, count: 2 })),
      (e: unknown) => {
        assert.ok(e instanceof SluiceError);
        assert.equal(e.code, 'LOCK_BUSY');
        assert.equal(e.exitCode, 3);
        assert.match(e.message, /31337/);
        return true;
      },
    );
    assert.equal(host.writes('/project/state.yaml'), 0);
  });

  it('serializes concurrent updates in one process without losing any', async () => {
    // As the kernel does: one process serializes its own updates in memory, so they never race each
    // other for the file lock (which, polled by 25 updates with a 50 ms wait, failed on a loaded machine).
    const host = createMemoryHost({ files: { '/project/state.yaml': 'count: 0\nhistory: []\n' } });
    const mutex = createKeyedMutex();
    const store = createStateStore({ host, lockWaitMs: 50, queue: { exclusive: (key, fn) => mutex.run(key, fn) } });
    await Promise.all(Array.from({ length: 25 }, (_, i) => store.update(file, (s) => ({ ...s, count: s.count + 1, history: [...s.history, String(i)] }))));
    const s = await store.read(file);
    assert.equal(s.count, 25);
    assert.equal(s.history.length, 25);
  });
});
