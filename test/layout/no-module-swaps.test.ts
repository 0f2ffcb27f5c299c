import assert from 'node:assert/strict';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, posix } from 'node:path';
import { before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { freshBundle } from '../../scripts/test/fresh-bundle.mjs';

/**
 * What ships is the code the layout tests read: `npm run build` puts no project module in another's
 * place. Each build's metafile (dist/meta/, written by scripts/build.mjs) must show every import of a
 * project file resolved where the source says, each project file bundled as it is on disk, and an
 * import left out of the bundle either unchanged (a branch that runs only from source) or pointing at
 * the build's own output of the very module the source names (dist/guard.cjs for guard-main.ts).
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const BUILDS = ['esm', 'guard', 'yaml', 'cli'];
const SOURCE = /^(api|core|plugins|gates|delegates)\//;

interface MetaImport {
  path: string;
  kind: string;
  original?: string;
  external?: boolean;
}
interface Metafile {
  inputs: Record<string, { bytes: number; imports: MetaImport[] }>;
  outputs: Record<string, { entryPoint?: string; inputs: Record<string, unknown> }>;
}

/** The relative specifiers a source file names (static, dynamic, re-exports). */
const specifiersIn = (text: string) => [...text.matchAll(/(?:\bfrom|\bimport\(?)\s*['"](\.{1,2}\/[^'"]+)['"]/g)].map((m) => m[1]);

/**
 * Every place where `meta` bundles something other than what the source imports. `entries`: each build
 * output (`dist/guard.cjs`) and the module it was built from; `read`: a repository file's text and size.
 */
function swapsIn(meta: Metafile, entries: Map<string, string>, read: (file: string) => { text: string; size: number }): string[] {
  const found: string[] = [];
  const outputOf = new Map<string, string>();
  for (const [out, o] of Object.entries(meta.outputs)) for (const input of Object.keys(o.inputs)) outputOf.set(input, out);
  for (const [file, input] of Object.entries(meta.inputs)) {
    if (!SOURCE.test(file)) continue;
    const { text, size } = read(file);
    if (size !== input.bytes) found.push(`${file}: bundled with other contents than the file's`);
    const named = specifiersIn(text).map((s) => posix.join(posix.dirname(file), s));
    for (const imp of input.imports) {
      if (imp.original?.startsWith('.')) {
        const wanted = posix.join(posix.dirname(file), imp.original);
        if (imp.path !== wanted) found.push(`${file}: '${imp.original}' bundled as ${imp.path}`);
      } else if (imp.original !== undefined && SOURCE.test(imp.path)) {
        found.push(`${file}: '${imp.original}' bundled as the project's ${imp.path}`);
      } else if (imp.external && imp.path.startsWith('.')) {
        if (specifiersIn(text).includes(imp.path)) continue;
        const out = outputOf.get(file);
        const built = out === undefined ? undefined : entries.get(posix.join(posix.dirname(out), imp.path));
        if (built === undefined || !named.includes(built)) found.push(`${file}: loads ${imp.path}, which is not the build of a module it imports`);
      }
    }
  }
  return found;
}

describe('layout: the build performs no module swaps', () => {
  const metas = new Map<string, Metafile>();
  before(() => {
    freshBundle();
    for (const name of BUILDS) {
      const file = join(root, 'dist', 'meta', `${name}.json`);
      assert.ok(existsSync(file), `${file} is missing: run npm run build`);
      metas.set(name, JSON.parse(readFileSync(file, 'utf8')) as Metafile);
    }
  });
  const read = (file: string) => ({ text: readFileSync(join(root, file), 'utf8'), size: statSync(join(root, file)).size });

  it('every build bundles each project module as the source imports it', () => {
    const entries = new Map<string, string>();
    for (const meta of metas.values()) for (const [out, o] of Object.entries(meta.outputs)) if (o.entryPoint) entries.set(out, o.entryPoint);
    const found = BUILDS.flatMap((name) => swapsIn(metas.get(name)!, entries, read).map((s) => `${name}: ${s}`));
    assert.deepEqual(found, []);
  });

  it('the CLI runner and the guard bundle the loaders that choose their built files at run time', () => {
    assert.ok('plugins/cli/cli-loader.ts' in metas.get('cli')!.inputs);
    assert.ok('plugins/guard/shell-guard-loader.ts' in metas.get('guard')!.inputs);
    assert.ok('core/store/yaml-library.ts' in metas.get('cli')!.inputs);
  });

  it('the check sees a swapped module, a redirected package and rewritten contents', () => {
    const files: Record<string, string> = { 'core/a.ts': "import { b } from './b.ts';\nimport * as Y from 'yaml';\n", 'core/b.ts': '', 'core/c.ts': '' };
    const meta: Metafile = {
      inputs: {
        'core/a.ts': {
          bytes: 60,
          imports: [
            { path: 'core/c.ts', kind: 'import-statement', original: './b.ts' },
            { path: 'core/b.ts', kind: 'import-statement', original: 'yaml' },
            { path: './d.cjs', kind: 'dynamic-import', external: true },
          ],
        },
        'core/c.ts': { bytes: 1, imports: [] },
      },
      outputs: { 'dist/a.cjs': { entryPoint: 'core/a.ts', inputs: { 'core/a.ts': {}, 'core/c.ts': {} } } },
    };
    const found = swapsIn(meta, new Map([['dist/d.cjs', 'core/d.ts']]), (f) => ({ text: files[f] ?? '', size: (files[f] ?? '').length }));
    assert.equal(found.length, 5, found.join('\n'));
  });
});
