import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { MAX_CACHE_ENTRIES, parseCacheDir, parseWithCache } from '../../plugins/sdlc/project/disk-cache.ts';
import type { StatusView } from '../../plugins/sdlc-views/model/status-view.ts';
import { fixtureCopy } from './fixture-copy.ts';
import { removeCliBundle, sluice, sluiceJson } from './views-cli.ts';

after(removeCliBundle);
const host = createNodeHost();

function counted() {
  const calls: string[] = [];
  return { calls, parse: (text: string) => (calls.push(text), parse(text) as unknown) };
}

describe('parsed-file cache', () => {
  it('parses a file once while its bytes stay the same, and again when they change', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cache-'));
    const p = counted();
    const first = await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\nb: [x, y]\n', p.parse);
    const second = await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\nb: [x, y]\n', p.parse);
    const edited = await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 2\n', p.parse);
    const back = await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\nb: [x, y]\n', p.parse);
    assert.deepEqual([first.hit, second.hit, edited.hit, back.hit], [false, true, false, false], 'only the last bytes parsed are kept');
    assert.deepEqual(second.value, first.value);
    assert.deepEqual(edited.value, { a: 2 });
    assert.equal(p.calls.length, 3);
    await rm(dir, { recursive: true });
  });

  it('keeps one entry per file and kind: another file or kind with the same bytes parses for itself', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cache-'));
    const p = counted();
    await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse);
    await parseWithCache(host, dir, 'k', '/p/b.yaml', 'a: 1\n', p.parse);
    await parseWithCache(host, dir, 'other', '/p/a.yaml', 'a: 1\n', p.parse);
    const hits = await Promise.all([
      parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse),
      parseWithCache(host, dir, 'k', '/p/b.yaml', 'a: 1\n', p.parse),
      parseWithCache(host, dir, 'other', '/p/a.yaml', 'a: 1\n', p.parse),
    ]);
    assert.deepEqual(
      hits.map((h) => h.hit),
      [true, true, true],
    );
    assert.equal(p.calls.length, 3);
    assert.equal((await readdir(dir)).length, 3);
    await rm(dir, { recursive: true });
  });

  it('treats a damaged or foreign entry as a miss, keeps non-JSON values out, and parses every time when off', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cache-'));
    const p = counted();
    await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse);
    const [entry] = await readdir(dir);
    await writeFile(join(dir, entry), '{"a": 1');
    assert.deepEqual(await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse), { value: { a: 1 }, hit: false });
    assert.equal((await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse)).hit, true, 'the damaged entry was rewritten');
    // An entry written for other bytes, or moved from another file's name, is not used for these.
    const good = JSON.parse(await readFile(join(dir, entry), 'utf8'));
    await writeFile(join(dir, entry), JSON.stringify({ ...good, text: 'a: 9\n', value: { a: 9 } }));
    assert.deepEqual(await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse), { value: { a: 1 }, hit: false });
    await writeFile(join(dir, entry), JSON.stringify({ ...good, file: '/p/other.yaml' }));
    assert.equal((await parseWithCache(host, dir, 'k', '/p/a.yaml', 'a: 1\n', p.parse)).hit, false);
    await parseWithCache(host, dir, 'k', '/p/x.yaml', 'x: .inf\n', p.parse);
    assert.deepEqual(await parseWithCache(host, dir, 'k', '/p/x.yaml', 'x: .inf\n', p.parse), { value: { x: Infinity }, hit: false });
    await parseWithCache(host, undefined, 'k', '/p/a.yaml', 'a: 1\n', p.parse);
    assert.equal(p.calls.length, 7);
    await rm(dir, { recursive: true });
  });

  it('keeps at most MAX_CACHE_ENTRIES entries', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-cache-'));
    for (let i = 0; i < MAX_CACHE_ENTRIES + 5; i++) await parseWithCache(host, dir, 'k', `/p/${i}.yaml`, `n: ${i}\n`, parse);
    assert.equal((await readdir(dir)).filter((n) => n.endsWith('.json')).length, MAX_CACHE_ENTRIES);
    await rm(dir, { recursive: true });
  });

  it('lives under SLUICE_CACHE_DIR, else XDG_CACHE_HOME or ~/.cache, and SLUICE_NO_CACHE=1 turns it off', () => {
    const env = (vars: Record<string, string>) => ({ env: (name: string) => vars[name], accountHome: () => '/account' });
    assert.equal(parseCacheDir(env({ SLUICE_CACHE_DIR: '/c', HOME: '/h' })), '/c/parsed');
    assert.equal(parseCacheDir(env({ XDG_CACHE_HOME: '/x', HOME: '/h' })), '/x/sluice/parsed');
    assert.equal(parseCacheDir(env({ HOME: '/h' })), '/h/.cache/sluice/parsed');
    assert.equal(parseCacheDir(env({ SLUICE_NO_CACHE: '1', SLUICE_CACHE_DIR: '/c' })), undefined);
    assert.equal(parseCacheDir(env({})), '/account/.cache/sluice/parsed', 'without HOME: the account home');
  });

  it('status shows the same with and without the cache, and sees an edited state at once', async () => {
    const project = await fixtureCopy('report-project', 'sluice-cache-project-');
    const off = await sluice(project, ['status'], { SLUICE_NO_CACHE: '1' });
    const cold = await sluice(project, ['status']);
    const warm = await sluice(project, ['status']);
    assert.equal(off.code, 0, off.stderr);
    assert.equal(cold.stdout, off.stdout);
    assert.equal(warm.stdout, off.stdout);
    const state = join(project, '.sdlc/state.yaml');
    await writeFile(state, (await readFile(state, 'utf8')).replace('project_name: Acme Payments', 'project_name: Acme Payouts'));
    const edited = await sluiceJson<StatusView>(project, ['status']);
    assert.equal(edited.doc.project, 'Acme Payouts');
    assert.equal((parse(await readFile(state, 'utf8')) as { project_name: string }).project_name, 'Acme Payouts');
    await rm(project, { recursive: true });
  });
});
