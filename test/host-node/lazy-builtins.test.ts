import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Script } from 'node:vm';
import { after, before, describe, it } from 'node:test';
import { build } from 'esbuild';
// @ts-expect-error: a build script, plain JavaScript without declarations
import { lazyBuiltins, lazyPackages } from '../../scripts/lazy-builtins.mjs';

interface Entry {
  echo(s: string): string;
  viaDefault(): string;
  viaNamespace(): string;
  yamlOf(value: unknown): string;
}

let dir: string;
let source: string;

/** Runs the bundle with a `require` that records what it is asked for (in this process: a child would get the test runner's preloads). */
function load(): { exports: Entry; required: string[] } {
  const required: string[] = [];
  // The bundle sits in a temp folder: packages are required from the repository's node_modules.
  const real = createRequire(import.meta.url);
  const req = (id: string) => {
    required.push(id.replace(/^node:/, ''));
    return real(id);
  };
  const module = { exports: {} as Entry };
  (new Script(`(function (exports, require, module) {${source}\n})`).runInThisContext() as (...a: unknown[]) => void)(module.exports, req, module);
  return { exports: module.exports, required };
}

describe('lazy built-in modules and packages in the bundles (scripts/lazy-builtins.mjs)', () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-lazy-builtins-'));
    writeFileSync(
      join(dir, 'entry.ts'),
      [
        "import { execFileSync } from 'node:child_process';",
        "import * as fsp from 'node:fs/promises';",
        "import cp from 'child_process';",
        "import * as Yaml from 'yaml';",
        'export const echo = (s: string) => execFileSync(process.execPath, ["-e", `process.stdout.write(${JSON.stringify(s)})`]).toString();',
        'export const viaDefault = () => typeof cp.spawnSync;',
        'export const viaNamespace = () => typeof fsp.readFile;',
        'export const yamlOf = (value: unknown) => Yaml.stringify(value);',
      ].join('\n'),
    );
    await build({
      entryPoints: [join(dir, 'entry.ts')],
      outfile: join(dir, 'bundle.cjs'),
      bundle: true,
      format: 'cjs',
      platform: 'node',
      logLevel: 'silent',
      plugins: [lazyBuiltins(['child_process', 'fs/promises']), lazyPackages(['yaml'])],
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

  it("requires an installed package the same way: core's plain yaml import, read only by a caller without a Host", () => {
    const { exports, required } = load();
    assert.deepEqual(required, []);
    assert.equal(exports.yamlOf({ a: [1] }), 'a:\n  - 1\n');
    assert.deepEqual(required, ['yaml']);
  });

  it('refuses a name that is no built-in module, and a built-in or a path as a package', () => {
    assert.throws(() => lazyBuiltins(['child-process']), /no Node built-in module/);
    assert.throws(() => lazyPackages(['fs']), /no package name/);
    assert.throws(() => lazyPackages(['./x.ts']), /no package name/);
  });
});
