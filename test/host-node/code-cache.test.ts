import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCached, saveCodeCache, WRAPPER_START } from '../../plugins/host-node/code-cache.ts';
import { cliBundle } from '../hardening/cli-bundle.ts';
import { repoRoot } from '../hardening/repo-files.ts';

const req = createRequire(import.meta.url);
let base: string;

describe('V8 code cache for CommonJS bundles (plugins/host-node/code-cache.ts)', () => {
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-code-cache-'));
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('runs the bundle with require, module and __dirname, compiles it without a cache and reuses the cache it saved', () => {
    const file = join(base, 'm.cjs');
    const cache = join(base, 'm.cache');
    writeFileSync(file, "const { join } = require('node:path'); exports.where = join(__dirname, 'x'); module.exports.twice = (n) => n * 2;\n");
    const first = loadCached<{ where: string; twice(n: number): number }>(file, cache, req);
    assert.equal(first.compiled, true, 'no cache yet: compiled from source');
    assert.equal(first.exports.where, join(base, 'x'));
    assert.equal(first.exports.twice(21), 42);
    assert.equal(saveCodeCache(first, cache), true);
    const second = loadCached<{ twice(n: number): number }>(file, cache, req);
    assert.equal(second.compiled, false, 'the saved cache is accepted');
    assert.equal(second.exports.twice(4), 8);
  });

  it('falls back to compiling when the cache is garbage or belongs to another source', () => {
    const file = join(base, 'n.cjs');
    const cache = join(base, 'n.cache');
    writeFileSync(file, 'exports.v = 1;\n');
    writeFileSync(cache, 'not a V8 code cache at all');
    assert.deepEqual(
      [loadCached<{ v: number }>(file, cache, req)].map((l) => [l.compiled, l.exports.v]),
      [[true, 1]],
    );
    const other = join(base, 'other.cjs');
    writeFileSync(other, 'exports.somethingElse = [1, 2, 3].map(String);\n');
    saveCodeCache(loadCached(other, cache, req), cache);
    const loaded = loadCached<{ v: number }>(file, cache, req);
    assert.equal(loaded.compiled, true, "another file's cache is not used");
    assert.equal(loaded.exports.v, 1);
  });

  it('never runs the bytecode of another source of the same length (V8 itself checks only the length)', () => {
    const file = join(base, 'p.cjs');
    const cache = join(base, 'p.cache');
    writeFileSync(file, "exports.verdict = 'deny';\n");
    const denying = loadCached<{ verdict: string }>(file, cache, req);
    saveCodeCache(denying, cache);
    writeFileSync(file, "exports.verdict = 'oops';\n");
    const loaded = loadCached<{ verdict: string }>(file, cache, req);
    assert.equal(loaded.exports.verdict, 'oops', 'the source on disk runs, not the cached one');
    assert.equal(loaded.compiled, true);
  });

  it('matches a bundle that ends with its build id by that line, without keeping a copy of the bundle', () => {
    const file = join(base, 'b.cjs');
    const cache = join(base, 'b.cache');
    const body = `exports.verdict = 'deny'; /* ${'x'.repeat(20_000)} */\n`;
    writeFileSync(file, `${body}//# sluice-build=${'a'.repeat(32)}\n`);
    assert.equal(saveCodeCache(loadCached(file, cache, req), cache), true);
    assert.ok(statSync(cache).size < 20_000, 'the cache holds the build id, not the 20 KB source');
    const again = loadCached<{ verdict: string }>(file, cache, req);
    assert.deepEqual([again.compiled, again.exports.verdict], [false, 'deny']);
    // Another build of the same length: another id, so its cache is not this bundle's.
    writeFileSync(file, `${body.replace('deny', 'oops')}//# sluice-build=${'b'.repeat(32)}\n`);
    const rebuilt = loadCached<{ verdict: string }>(file, cache, req);
    assert.deepEqual([rebuilt.compiled, rebuilt.exports.verdict], [true, 'oops']);
  });

  it('a build id line that is not the last line does not stand for the bundle', () => {
    const file = join(base, 'q.cjs');
    const cache = join(base, 'q.cache');
    writeFileSync(file, `exports.verdict = 'deny';\n//# sluice-build=${'c'.repeat(32)}\nexports.more = 1;\n`);
    saveCodeCache(loadCached(file, cache, req), cache);
    writeFileSync(file, `exports.verdict = 'oops';\n//# sluice-build=${'c'.repeat(32)}\nexports.more = 1;\n`);
    const loaded = loadCached<{ verdict: string }>(file, cache, req);
    assert.deepEqual([loaded.compiled, loaded.exports.verdict], [true, 'oops']);
  });

  it('runs ASCII and non-ASCII sources alike, with or without a cache', () => {
    for (const [name, text] of [
      ['ascii', 'exports.s = "\\u2192 caf\\u00e9"; exports.r = /[:\\uff1a]/.test("\\uff1a");'],
      ['utf8', 'exports.s = "→ café"; exports.r = /[:：]/.test("：");'],
    ]) {
      const file = join(base, `${name}.cjs`);
      const cache = join(base, `${name}.cache`);
      writeFileSync(file, `${text}\n`);
      const first = loadCached<{ s: string; r: boolean }>(file, cache, req);
      saveCodeCache(first, cache);
      const second = loadCached<{ s: string; r: boolean }>(file, cache, req);
      assert.deepEqual([first.exports.s, first.exports.r, second.exports.s, second.exports.r, second.compiled], ['→ café', true, '→ café', true, false], name);
    }
  });

  it('reports a cache it cannot write instead of throwing, and leaves no temporary file', () => {
    const file = join(base, 'o.cjs');
    writeFileSync(file, 'exports.v = 2;\n');
    const loaded = loadCached(file, join(base, 'o.cache'), req);
    assert.equal(saveCodeCache(loaded, join(base, 'missing-folder', 'o.cache')), false);
    assert.equal(existsSync(join(base, 'missing-folder')), false);
  });
});

describe('the built guard loads its shell parser through the code cache (dist/guard.cjs)', () => {
  let dist: string;
  let project: string;
  const guard = (input: string) => {
    const r = spawnSync(process.execPath, [join(dist, 'run-guard.cjs')], {
      input,
      cwd: project,
      env: { ...process.env, CLAUDE_PROJECT_DIR: project, XDG_CONFIG_HOME: join(base, 'config') },
      encoding: 'utf8',
      timeout: 60_000,
    });
    assert.equal(r.status, 0, r.stderr);
    return r.stdout.trim() === ''
      ? 'allow'
      : (JSON.parse(r.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision;
  };
  const bash = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', cwd: project, tool_input: { command } });
  // A denial and an allowance that both need the parser, and an ask for a computed target.
  const cases: [string, string][] = [
    ['cd .sdlc && sed -i s/1/9/ state.yaml', 'deny'],
    ['git commit -m "$(cat <<\'EOF\'\nfix: typo\nEOF\n)"', 'allow'],
    ['rm -rf "$(pwd)/$X"', 'ask'],
  ];

  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-guard-cache-'));
    cliBundle();
    dist = join(base, 'dist');
    project = join(base, 'app');
    mkdirSync(join(project, '.sdlc'), { recursive: true });
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    mkdirSync(dist);
    for (const f of ['guard.cjs', 'guard-shell.cjs', 'guard-shell.cache']) copyFileSync(join(repoRoot, 'dist', f), join(dist, f));
    writeFileSync(join(dist, 'run-guard.cjs'), "require('./guard.cjs').guardMain().then((c) => { process.exitCode = c; });\n");
  });
  after(() => {
    chmodSync(dist, 0o755);
    rmSync(base, { recursive: true, force: true });
  });

  it('the build ships a cache this Node accepts', () => {
    const loaded = loadCached(join(dist, 'guard-shell.cjs'), join(dist, 'guard-shell.cache'), req);
    assert.equal(loaded.compiled, false, 'dist/guard-shell.cache was made by this Node for this bundle');
  });

  for (const state of ['present', 'missing', 'garbage'] as const) {
    it(`decides the same with the cache ${state}, and leaves a usable cache behind`, () => {
      const cache = join(dist, 'guard-shell.cache');
      if (state === 'missing') rmSync(cache);
      if (state === 'garbage') writeFileSync(cache, 'garbage');
      for (const [command, expected] of cases) assert.equal(guard(bash(command)), expected, command);
      assert.ok(statSync(cache).size > 1000, 'a fresh cache was written');
      assert.equal(loadCached(join(dist, 'guard-shell.cjs'), cache, req).compiled, false);
    });
  }

  it('decides the same in a read-only install without a cache', { skip: process.getuid?.() === 0 && 'root writes to read-only folders' }, () => {
    rmSync(join(dist, 'guard-shell.cache'));
    chmodSync(dist, 0o555);
    for (const [command, expected] of cases) assert.equal(guard(bash(command)), expected, command);
    assert.equal(existsSync(join(dist, 'guard-shell.cache')), false);
  });

  it('the bundle the cache was made for is the one shipped', () => {
    assert.deepEqual(readFileSync(join(dist, 'guard-shell.cjs')), readFileSync(join(repoRoot, 'dist/guard-shell.cjs')));
  });
});

describe('the built CLI runner (dist/sluice-cli.cjs) and its code cache', () => {
  it('is ASCII (read as Latin-1), ends with its build id, and ships a cache this Node accepts that holds no copy of it', () => {
    cliBundle();
    const runner = join(repoRoot, 'dist/sluice-cli.cjs');
    const source = readFileSync(runner);
    assert.ok(
      source.every((byte) => byte < 0x80),
      'no raw non-ASCII character in the runner',
    );
    assert.match(source.subarray(-60).toString('latin1'), /\n\/\/# sluice-build=[0-9a-f]{32}\n$/);
    assert.ok(source.subarray(0, WRAPPER_START.length).toString('latin1') === WRAPPER_START, 'written already wrapped, as the loader wraps a bundle');
    // A copy: loading may write a fresh cache, and the shipped one must stay as it is for other tests.
    const dir = mkdtempSync(join(tmpdir(), 'sluice-cli-cache-'));
    try {
      const cache = join(dir, 'sluice-cli.cache');
      copyFileSync(join(repoRoot, 'dist/sluice-cli.cache'), cache);
      assert.ok(statSync(cache).size < source.length, 'the cache holds the build id, not a copy of the runner');
      assert.equal(loadCached(runner, cache, createRequire(runner)).compiled, false);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
