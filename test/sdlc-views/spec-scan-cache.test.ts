import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { scanSpecs } from '../../plugins/sdlc-views/specs/scan-specs.ts';
import { summarizeSpecs } from '../../plugins/sdlc-views/specs/summarize-specs.ts';
import { fixtureCopy } from './fixture-copy.ts';

const host = createNodeHost();

/** A copy of the fixture repo and an empty cache folder. */
async function repoAndCache(): Promise<{ repo: string; cacheDir: string; done: () => Promise<void> }> {
  const repo = await fixtureCopy('spec-repo', 'sluice-scan-cache-');
  const cacheDir = await mkdtemp(join(tmpdir(), 'sluice-scan-cache-dir-'));
  return { repo, cacheDir, done: () => Promise.all([rm(repo, { recursive: true }), rm(cacheDir, { recursive: true })]).then(() => {}) };
}

/** Scans as if a minute from now, when the files just copied have settled (ctime cannot be backdated). */
const later = (cacheDir: string) => ({ cacheDir, now: Date.now() + 60_000 });
const cacheFile = async (cacheDir: string) => join(cacheDir, (await readdir(cacheDir)).find((n) => n.startsWith('specs-'))!);

describe('spec scan cache', () => {
  it('gives the same backlog as a scan without it, from the cache on the second scan', async () => {
    const { repo, cacheDir, done } = await repoAndCache();
    const plain = await scanSpecs(host, repo);
    assert.deepEqual(await scanSpecs(host, repo, later(cacheDir)), plain);
    // Prove the second scan answers from the cache: plant a different value for an unchanged file.
    const file = await cacheFile(cacheDir);
    const doc = JSON.parse(await readFile(file, 'utf8'));
    doc.files['0004-search.md'][3] = 'from-the-cache';
    await writeFile(file, JSON.stringify(doc));
    assert.equal((await scanSpecs(host, repo, later(cacheDir))).find((s) => s.file === 'specs/0004-search.md')?.status, 'from-the-cache');
    await done();
  });

  it('reads a spec again when it changes, even to the same size, and forgets deleted specs', async () => {
    const { repo, cacheDir, done } = await repoAndCache();
    await scanSpecs(host, repo, later(cacheDir));
    const path = join(repo, 'specs', '0004-search.md');
    const text = await readFile(path, 'utf8');
    const edited = text.replace(/status: *\S+/, (m) => `status: ${'x'.repeat(m.length - 'status: '.length)}`);
    assert.equal(edited.length, text.length);
    await writeFile(path, edited);
    await rm(join(repo, 'specs', '0003-billing.md'));
    const after = await scanSpecs(host, repo, later(cacheDir));
    assert.deepEqual(after, await scanSpecs(host, repo));
    assert.match(after.find((s) => s.file === 'specs/0004-search.md')?.status ?? '', /^x+$/);
    const doc = JSON.parse(await readFile(await cacheFile(cacheDir), 'utf8'));
    assert.equal('0003-billing.md' in doc.files, false);
    await done();
  });

  it('does not keep a spec changed in the last two seconds (a second edit could share its timestamp)', async () => {
    const { repo, cacheDir, done } = await repoAndCache();
    await scanSpecs(host, repo, { cacheDir, now: Date.now() + 1000 });
    assert.deepEqual(await readdir(cacheDir), [], 'files copied a moment ago are not cached');
    await scanSpecs(host, repo, later(cacheDir));
    const doc = JSON.parse(await readFile(await cacheFile(cacheDir), 'utf8'));
    assert.equal(Object.keys(doc.files).length, 8);
    await done();
  });

  it('treats a damaged, foreign or hostile cache file as empty', async () => {
    const { repo, cacheDir, done } = await repoAndCache();
    const expected = summarizeSpecs(repo, await scanSpecs(host, repo));
    await scanSpecs(host, repo, later(cacheDir));
    const file = await cacheFile(cacheDir);
    const good = JSON.parse(await readFile(file, 'utf8'));
    const bad = [
      '{not json',
      JSON.stringify({ ...good, format: 99 }),
      JSON.stringify({ ...good, dir: '/elsewhere/specs' }),
      JSON.stringify({ ...good, files: { ...good.files, '0004-search.md': [good.files['0004-search.md'][0], { status: 'merged' }] } }),
      JSON.stringify({ ...good, files: { ...good.files, '0004-search.md': [12, null, null, null, null, null] } }),
      '{"__proto__": {"polluted": true}, "files": {}}',
    ];
    for (const text of bad) {
      await writeFile(file, text);
      assert.deepEqual(summarizeSpecs(repo, await scanSpecs(host, repo, later(cacheDir))), expected, text.slice(0, 80));
      assert.equal(({} as Record<string, unknown>).polluted, undefined);
    }
    await done();
  });

  it('scans normally when the cache folder cannot be written', async () => {
    const { repo, cacheDir, done } = await repoAndCache();
    const blocked = join(cacheDir, 'a-file');
    await writeFile(blocked, '');
    assert.deepEqual(await scanSpecs(host, repo, { cacheDir: join(blocked, 'parsed') }), await scanSpecs(host, repo));
    await done();
  });
});
