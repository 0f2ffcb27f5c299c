#!/usr/bin/env node
// Bundles the CLI into dist/sluice.mjs. Code splitting keeps cold start low: each command's
// heavy modules live in their own chunk and load only when that command runs.
import { build } from 'esbuild';
import { chmod, readFile, rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

await rm(new URL('../dist', import.meta.url), { recursive: true, force: true });

/**
 * yaml's ES module build instead of its CommonJS one: tree-shaken and without a wrapper per file, it
 * loads ~5 ms faster on every command. The one difference is how the library logs a warning (console.warn
 * there, process.emitWarning in its Node build): patched back to Node's.
 */
const yamlAsEsm = {
  name: 'yaml as ESM',
  setup(b) {
    b.onResolve({ filter: /^yaml$/ }, () => ({ path: fileURLToPath(new URL('../node_modules/yaml/browser/index.js', import.meta.url)) }));
    b.onLoad({ filter: /[\\/]yaml[\\/]browser[\\/]dist[\\/]log\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const warn = 'console.warn(warning);';
      if (!text.includes(warn)) throw new Error(`${args.path}: the yaml library changed how it warns; revisit this patch`);
      return {
        contents: text.replace(warn, "typeof process.emitWarning === 'function' ? process.emitWarning(warning) : console.warn(warning);"),
        loader: 'js',
      };
    });
  },
};

/** Makes `import(SPEC)` in a file matching `importer` load `to` beside the output at run time instead of bundling it. */
const loadAtRunTime = (importer, spec, to) => ({
  name: `run-time ${to}`,
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) =>
      args.kind === 'dynamic-import' && args.path === spec && importer.test(args.importer) ? { path: to, external: true } : undefined,
    );
  },
});

const result = await build({
  absWorkingDir: root,
  // sluice: the CLI; the rest are the package's public entry points (package.json `exports`).
  entryPoints: {
    sluice: 'plugins/cli/main.ts',
    index: 'api/index.ts',
    gates: 'api/gates.ts',
    delegates: 'api/delegates.ts',
    sdlc: 'api/sdlc.ts',
    lifecycle: 'api/lifecycle.ts',
    tune: 'api/tune.ts',
  },
  outdir: 'dist',
  entryNames: '[name]',
  chunkNames: 'chunks/[name]-[hash]',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  sourcemap: 'linked',
  metafile: true,
  legalComments: 'none',
  define: { __SLUICE_VERSION__: JSON.stringify(pkg.version) },
  // yaml (and other CJS dependencies) call require(); give the ESM bundle one.
  banner: { js: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);" },
  // tsx loads .ts plugins with its own loader; it must stay a real package, not bundled code.
  external: ['tsx', 'tsx/*'],
  // A bare `sluice guard` (Claude Code's PreToolUse hook, run before every tool call) loads dist/guard.mjs alone.
  plugins: [loadAtRunTime(/plugins[\\/]cli[\\/]main\.ts$/, '../guard/guard-main.ts', './guard.mjs'), yamlAsEsm],
  logLevel: 'warning',
});
// The guard as two self-contained files, no shared chunks: guard.mjs, and guard-shell.mjs with the
// shell parser, which guard.mjs loads only for a command its prefilter cannot clear.
await build({
  absWorkingDir: root,
  entryPoints: { guard: 'plugins/guard/guard-main.ts', 'guard-shell': 'plugins/guard/shell-guard.ts' },
  outdir: 'dist',
  outExtension: { '.js': '.mjs' },
  bundle: true,
  splitting: false,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  plugins: [loadAtRunTime(/plugins[\\/]guard[\\/]decide-tool\.ts$/, './shell-guard.ts', './guard-shell.mjs')],
  logLevel: 'warning',
});
// The bin itself calls no require(): drop the banner's node:module import from the guard's hot path.
const bin = new URL('../dist/sluice.mjs', import.meta.url);
const binText = await readFile(bin, 'utf8');
const banner = "import{createRequire}from'node:module';const require=createRequire(import.meta.url);\n";
if (binText.includes(banner) && !binText.replace(banner, '').includes('require')) await writeFile(bin, binText.replace(banner, ''));
await chmod(bin, 0o755);
// Declarations for the same entry points (skipped by `--no-types` for quick local rebuilds).
if (!process.argv.includes('--no-types')) await import('./build-types.mjs');
if (process.argv.includes('--analyze')) {
  const { analyzeMetafile } = await import('esbuild');
  console.log(await analyzeMetafile(result.metafile));
}
