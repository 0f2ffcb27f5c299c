import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, readdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import * as v from 'valibot';
import { createStateStore, SluiceError, yamlCodec } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { bundleScript } from '../helpers/bundle-script.ts';
import { spawnReaped } from '../helpers/reap-children.ts';

const CounterSchema = v.object({ count: v.pipe(v.number(), v.integer()), writers: v.array(v.number()), payload: v.string() });
let worker: string;

function start(args: string[]): { child: ChildProcess; line: Promise<string>; exit: Promise<number | null> } {
  const child = spawnReaped(process.execPath, [worker, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  const line = new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d).trim())));
  const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, line, exit };
}

async function stateFile(initial = { count: 0, writers: [] as number[], payload: '' }) {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-store-'));
  const path = join(dir, 'state.json');
  await writeFile(path, JSON.stringify(initial));
  return { dir, path };
}

describe('state store across processes (Node host)', () => {
  before(async () => {
    worker = await bundleScript('test/fixtures/host-node/store-worker.ts');
  });

  it('two processes doing 50 updates each lose no update', async () => {
    const { path } = await stateFile();
    const a = start(['count', path, '50']);
    const b = start(['count', path, '50']);
    assert.deepEqual(await Promise.all([a.exit, b.exit]), [0, 0]);
    const s = JSON.parse(await readFile(path, 'utf8')) as v.InferOutput<typeof CounterSchema>;
    assert.equal(s.count, 100);
    assert.equal(s.writers.length, 100);
    assert.equal(new Set(s.writers).size, 2, 'both processes wrote');
  });

  it('a process killed with SIGKILL in the middle of writing leaves a previous valid file', async () => {
    const { dir, path } = await stateFile();
    for (let round = 0; round < 8; round++) {
      const before = JSON.parse(await readFile(path, 'utf8')) as v.InferOutput<typeof CounterSchema>;
      const w = start(['churn', path]);
      assert.equal(await w.line, 'ready');
      await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 60)));
      w.child.kill('SIGKILL');
      await w.exit;
      const text = await readFile(path, 'utf8');
      const s = v.parse(CounterSchema, JSON.parse(text));
      assert.ok(s.count > before.count, 'the worker made progress');
      // Torn writes would break this: the payload is a pure function of the count.
      assert.equal(s.payload, String(s.count % 10).repeat(200_000 + (s.count % 7) * 50_000));
    }
    // The next writer recovers the dead worker's lock and continues.
    const store = createStateStore({ host: createNodeHost(), lockWaitMs: 2000 });
    const r = await store.update({ path, schema: CounterSchema }, (s) => ({ ...s, count: s.count + 1 }));
    assert.equal(r.written, true);
    assert.deepEqual(
      (await readdir(dir)).filter((f) => f.endsWith('.lock')),
      [],
    );
  });

  it('recovers a lock held by a process that died', async () => {
    const { path } = await stateFile();
    const holder = start(['hold', path]);
    assert.equal(await holder.line, 'locked');
    holder.child.kill('SIGKILL');
    await holder.exit;
    const store = createStateStore({ host: createNodeHost(), lockWaitMs: 2000 });
    const r = await store.update({ path, schema: CounterSchema }, (s) => ({ ...s, count: 42 }));
    assert.equal(r.after.count, 42);
  });

  it('a live holder makes the update fail with exit code 3 and the holder pid', async () => {
    const { path } = await stateFile();
    const holder = start(['hold', path]);
    assert.equal(await holder.line, 'locked');
    try {
      const store = createStateStore({ host: createNodeHost(), lockWaitMs: 200 });
      await assert.rejects(
        store.update({ path, schema: CounterSchema }, (s) => ({ ...s, count: 1 })),
        (e: unknown) => {
          assert.ok(e instanceof SluiceError);
          assert.equal(e.exitCode, 3);
          assert.equal(e.data?.pid, holder.child.pid);
          assert.match(e.message, new RegExp(`process ${holder.child.pid}`));
          return true;
        },
      );
      assert.equal(JSON.parse(await readFile(path, 'utf8')).count, 0);
    } finally {
      holder.child.kill('SIGKILL');
      await holder.exit;
    }
  });

  it('reports a corrupt file with exit code 2 and leaves it byte for byte as it was', async () => {
    const { path } = await stateFile();
    const yamlPath = path.replace('.json', '.yaml');
    const corrupt = 'count: 3\nwriters: [1, 2\npayload: "x"\n';
    await writeFile(yamlPath, corrupt);
    const store = createStateStore({ host: createNodeHost() });
    await assert.rejects(
      store.update({ path: yamlPath, schema: CounterSchema, codec: yamlCodec }, (s) => ({ ...s, count: 4 })),
      { code: 'STATE_CORRUPT', exitCode: 2 },
    );
    assert.equal(await readFile(yamlPath, 'utf8'), corrupt);
  });
});
