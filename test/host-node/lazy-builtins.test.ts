import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
// @ts-expect-error: a build script, plain JavaScript without declarations
import { lazyBuiltins } from '../../scripts/lazy-builtins.mjs';

interface Entry {
  echo(s: string): string;
  viaDefault(): string;
  viaNamespace(): string;
}

let dir: string;
let source: string;

/** Runs the bundle with a `require` that records what it is asked for (in this process: a child would get the test runner's preloads). */
function load(): { exports: Entry; required: string[] } {
  const required: string[] = [];
  const real = createRequire(join(dir, 'bundle.cjs'));
  const req = (id: string) => {
    required.push(id.replace(/^node:/, ''));
    return real(id);
  };
  const module = { exports: {} as Entry };
  (new Script(`(function (exports, require, module) {${source}\n})`).runInThisContext() as (...a: unknown[]) => void)(module.exports, req, module);
  return { exports: module.exports, required };
}

describe('lazy built-in modules in the CLI runner build (scripts/lazy-builtins.mjs)', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-lazy-builtins-'));
    writeFileSync(
      join(dir, 'entry.ts'),
      [
        "import { execFileSync } from 'node:child_process';",
        "import * as fsp from 'node:fs/promises';",
        "import cp from 'child_process';",
        'export const echo = (s: string) => execFileSync(process.execPath, ["-e", `process.stdout.write(${JSON.stringify(s)})`]).toString();',
        'export const viaDefault = () => typeof cp.spawnSync;',
        'export const viaNamespace = () => typeof fsp.readFile;',
      ].join('\n'),
    );
    await build({
      entryPoints: [join(dir, 'entry.ts')],
      outfile: join(dir, 'bundle.cjs'),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      logLevel: 'silent',
      plugins: [lazyBuiltins(['child_process', 'fs/promises'])],
    });
    source = readFileSync(join(dir, 'bundle.cjs'), 'utf8');
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('requires none of them when the bundle starts', () => {
    assert.deepEqual(load().required, []);
  });

  it('requires each on first use, through named, default and namespace imports, and works as the module itself', () => {
    const { exports, required } = load();
    assert.equal(exports.viaNamespace(), 'function');
    assert.deepEqual(required, ['fs/promises']);
    assert.equal(exports.echo('hi'), 'hi');
    assert.equal(exports.viaDefault(), 'function');
    assert.deepEqual(required, ['fs/promises', 'child_process']);
  });

  it('refuses a name that is no built-in module', () => {
    assert.throws(() => lazyBuiltins(['child-process']), /no Node built-in module/);
  });
});
