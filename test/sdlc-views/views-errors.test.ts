import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { fixtureCopy } from './fixture-copy.ts';
import { removeCliBundle, sluice, sluiceJson } from './views-cli.ts';

after(removeCliBundle);
const project = () => fixtureCopy('report-project', 'sluice-views-err-');

describe('views on bad input', () => {
  it('status, audit and report outside an SDLC project: PROJECT_MISSING, exit 2', async () => {
    const empty = await mkdtemp(join(tmpdir(), 'sluice-views-empty-'));
    for (const args of [['status'], ['audit'], ['report', '--all']]) {
      const r = await sluice(empty, args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr, /^error PROJECT_MISSING: \.sdlc\/state\.yaml: /);
    }
    await rm(empty, { recursive: true });
  });

  it('a truncated or invalid state.yaml is named with its field, exit 2, and left as it was', async () => {
    const dir = await project();
    const path = join(dir, '.sdlc/state.yaml');
    const original = await readFile(path, 'utf8');
    await writeFile(path, original.slice(0, original.indexOf('history:') + 20));
    const truncated = await sluice(dir, ['status']);
    assert.equal(truncated.code, 2);
    assert.match(truncated.stderr, /STATE_(CORRUPT|INVALID): \.sdlc\/state\.yaml/);
    await writeFile(path, original.replace('status: active', 'status: started'));
    const invalid = await sluice(dir, ['audit']);
    assert.equal(invalid.code, 2);
    assert.match(invalid.stderr, /STATE_INVALID: \.sdlc\/state\.yaml, field phases\.1\.status/);
    assert.equal(await readFile(path, 'utf8'), original.replace('status: active', 'status: started'), 'nothing rewrote the file');
    await rm(dir, { recursive: true });
  });

  it('report refuses an unknown phase, --phase with --all, and an --out outside the project', async () => {
    const dir = await project();
    const unknown = await sluice(dir, ['report', '--phase', '4']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /PHASE_UNKNOWN: unknown phase "4"; phases are 0, 1, 2, 3, build, 7, 8, 9, close/);
    const both = await sluice(dir, ['report', '--phase', '1', '--all']);
    assert.equal(both.code, 2);
    assert.match(both.stderr, /USAGE: use either --phase ID or --all/);
    const outside = await sluice(dir, ['report', '--out', '../escape.html']);
    assert.equal(outside.code, 2);
    assert.match(outside.stderr, /PATH_OUTSIDE_PROJECT/);
    await rm(dir, { recursive: true });
  });

  it('an artifact symlinked to a file outside the project is named on the page, never read into it', async () => {
    const dir = await project();
    const secret = join(await mkdtemp(join(tmpdir(), 'sluice-secret-')), 'secret.md');
    await writeFile(secret, '# TOP SECRET CONTENT\n');
    const link = join(dir, '.sdlc/artifacts/00-discovery/constitution.md');
    await rm(link);
    await symlink(secret, link);
    const r = await sluiceJson<{ files: string[] }>(dir, ['report', '--phase', '0']);
    assert.equal(r.code, 0, r.stderr);
    const page = await readFile(r.doc.files[0], 'utf8');
    assert.ok(!page.includes('TOP SECRET CONTENT'));
    assert.match(page, /data-artifact="\.sdlc\/artifacts\/00-discovery\/constitution\.md"[^]*?not shown: the path leads outside the project/);
    await rm(dir, { recursive: true });
  });

  it('report for the current phase by default lands in .sdlc/reports/<slug>-report.html', async () => {
    const dir = await project();
    const r = await sluiceJson<{ files: string[]; pages: { phase: string; file: string }[] }>(dir, ['report']);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(r.doc.pages, [{ phase: '1', file: join(dir, '.sdlc/reports/01-requirements-report.html') }]);
    assert.deepEqual(r.doc.files, [join(dir, '.sdlc/reports/01-requirements-report.html')]);
    const page = await readFile(r.doc.files[0], 'utf8');
    assert.match(page, /<title>Phase 1: Requirements — Acme Payments<\/title>/);
    assert.doesNotMatch(page, /<(script|link|iframe|object)\b/i, 'no script, external stylesheet or embed');
    assert.doesNotMatch(page, /\b(src|href)="(https?:)?\/\//, 'no external resource');
    await rm(dir, { recursive: true });
  });
});
