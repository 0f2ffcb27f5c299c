import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { projectsRemovedAfterTests, sluice, sluiceJson } from './views-cli.ts';

const project = projectsRemovedAfterTests();
const caches: string[] = [];
after(async () => {
  for (const c of caches) await rm(c, { recursive: true, force: true });
});

interface AuditDoc {
  forgedCache: { file: string; entry: string }[];
}

describe('audit makes a forged parse-cache entry visible', () => {
  it('flags an entry whose value the file does not parse to (exit 1, text and JSON); an honest cache and a removed entry pass', async () => {
    const dir = await project('sluice-forged-cache-', ['--profile', 'starter', '--type', 'service']);
    const cache = await mkdtemp(join(tmpdir(), 'sluice-forged-cache-dir-'));
    caches.push(cache);
    const env = { SLUICE_CACHE_DIR: cache };
    assert.equal((await sluice(dir, ['gate'], env)).code, 1, 'phase 0 of a new project has unfilled artifacts');

    const honest = await sluiceJson<AuditDoc>(dir, ['audit'], env);
    assert.equal(honest.code, 0, honest.stderr);
    assert.deepEqual(honest.doc.forgedCache, []);

    // What a program could write: the state's exact bytes beside a value that says something else.
    const parsed = join(cache, 'parsed');
    const names = (await readdir(parsed)).filter((n) => n.endsWith('.json'));
    let stateEntry = '';
    for (const n of names) {
      const e = JSON.parse(await readFile(join(parsed, n), 'utf8')) as { kind: string; value: Record<string, unknown> };
      if (e.kind !== 'STATE_INVALID') continue;
      stateEntry = join(parsed, n);
      await writeFile(stateEntry, JSON.stringify({ ...e, value: { ...e.value, project_name: 'not what the file says' } }));
    }
    assert.ok(stateEntry, `the gate cached the state (${names.length} entries)`);

    const forged = await sluiceJson<AuditDoc>(dir, ['audit'], env);
    assert.equal(forged.code, 1);
    assert.deepEqual(forged.doc.forgedCache, [{ file: '.sdlc/state.yaml', entry: stateEntry }]);
    const text = await sluice(dir, ['audit'], env);
    assert.equal(text.code, 1);
    assert.match(text.stdout, /FORGED .*holds a value \.sdlc\/state\.yaml does not parse to/);

    await rm(stateEntry);
    assert.equal((await sluiceJson<AuditDoc>(dir, ['audit'], env)).code, 0);
  });
});
