#!/usr/bin/env node
// Bundles the CLI into dist/sluice.mjs. Code splitting keeps cold start low: each command's
// heavy modules live in their own chunk and load only when that command runs.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmod, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCachedCli } from './build-cli-cache.mjs';
import { parserPatches } from './guard-parser-patches.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

// Retried: a command running from the old dist/ may be writing a code cache into it (ENOTEMPTY).
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true, maxRetries: 5 });

/**
 * yaml's ES module build instead of its CommonJS one: one scope, no wrapper per file, ~5 ms less to
 * load. The one difference is how the library logs a warning (console.warn there, process.emitWarning
 * in its Node build): patched back to Node's.
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

/** Bundles the source file `to` wherever the source file `from` is imported (both relative to the repository root). */
const swapModule = (from, to) => ({
  name: `swap ${from}`,
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) => (join(args.resolveDir, args.path) === join(root, from) ? { path: join(root, to) } : undefined));
  },
});

/**
 * bash-parser reads `$((...))` with babylon, a whole JavaScript parser (half of the guard's shell
 * bundle). In guard-shell.cjs its one call, `parse`, loads it from guard-arith.cjs on first use, so
 * commands without arithmetic neither load nor compile it. Same code, same result, loaded later.
 */
const lazyBabylon = {
  name: 'lazy babylon',
  setup(b) {
    b.onResolve({ filter: /^babylon$/ }, (args) => (args.kind === 'require-call' ? { path: 'babylon', namespace: 'lazy-babylon' } : undefined));
    b.onLoad({ filter: /.*/, namespace: 'lazy-babylon' }, () => ({
      contents: "exports.parse = (...args) => require(require('node:path').join(__dirname, 'guard-arith.cjs')).parse(...args);",
      loader: 'js',
    }));
  },
};

/** Judges sample commands with dist/guard-shell.cjs and saves V8's code cache of the compiled parser beside it. */
async function primeGuardCodeCache() {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-build-'));
  try {
    const prime = join(dir, 'prime.cjs');
    await build({ ...guardBuild, outdir: undefined, entryPoints: ['plugins/guard/prime-code-cache.ts'], outfile: prime });
    // V8 accepts a cache only under the same flags: make it as the hook runs, without NODE_OPTIONS.
    const { NODE_OPTIONS: _flags, ...env } = process.env;
    const made = spawnSync(process.execPath, [prime, join(root, 'dist/guard-shell.cjs'), join(root, 'dist/guard-shell.cache')], { env, stdio: 'inherit' });
    if (made.status !== 0) throw new Error('build: priming the guard code cache failed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

const result = await build({
  absWorkingDir: root,
  // sluice: the CLI; the rest are the package's public entry points (package.json `exports`).
  entryPoints: {
    sluice: 'plugins/cli/main.ts',
    index: 'api/index.ts',
    kernel: 'api/kernel.ts',
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
  // bullmq + ioredis (1.3 MB) load only for --queue / `sluice worker`, the MCP SDK only for `sluice mcp`: installed dependencies, not bundled.
  external: ['tsx', 'tsx/*', 'bullmq', 'ioredis', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
  // A bare `sluice guard` (Claude Code's PreToolUse hook, run before every tool call) loads dist/guard.cjs alone.
  plugins: [
    loadAtRunTime(/plugins[\\/]cli[\\/]main\.ts$/, '../guard/guard-main.ts', './guard.cjs'),
    // The bundle loads dist/yaml.cjs (built below) on first use, not with every command; core's own module is the plain import.
    swapModule('core/store/yaml-library.ts', 'plugins/host-node/lazy-yaml-library.ts'),
    // Commands run dist/sluice-cli.cjs through V8's code cache (built below by build-cli-cache.mjs).
    swapModule('plugins/cli/cli-loader.ts', 'plugins/cli/cached-cli-loader.ts'),
    yamlAsEsm,
  ],
  logLevel: 'warning',
});
// The guard as two self-contained CommonJS files, no shared chunks: guard.cjs, and guard-shell.cjs with
// the shell parser, which guard.cjs loads only for a command its prefilter cannot clear, through V8's
// code cache guard-shell.cache (Node 20 caches no compiled code for `require` or ESM). CommonJS
// because a bare `sluice guard` then starts no ESM loader (bin/sluice.cjs).
const guardBuild = {
  absWorkingDir: root,
  outdir: 'dist',
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  minify: true,
  legalComments: 'none',
  logLevel: 'warning',
};
await build({
  ...guardBuild,
  entryPoints: { guard: 'plugins/guard/guard-main.ts', 'guard-shell': 'plugins/guard/shell-guard.ts', 'guard-arith': 'babylon' },
  outExtension: { '.js': '.cjs' },
  plugins: [swapModule('plugins/guard/shell-guard-loader.ts', 'plugins/guard/cached-shell-guard.ts'), lazyBabylon, parserPatches],
});
await primeGuardCodeCache();
// The yaml library as one self-contained CommonJS file (the guard's build settings), required
// synchronously the first time a command parses or writes YAML.
await build({ ...guardBuild, entryPoints: { yaml: 'yaml' }, outExtension: { '.js': '.cjs' }, plugins: [yamlAsEsm] });
await buildCachedCli({
  root,
  common: guardBuild,
  define: { __SLUICE_VERSION__: JSON.stringify(pkg.version) },
  plugins: [
    swapModule('core/store/yaml-library.ts', 'plugins/host-node/lazy-yaml-library.ts'),
    // `sluice hooks` and a `guard` with arguments judge shell commands with the guard's own dist/guard-shell.cjs (and its cache), not a second copy of the parser.
    swapModule('plugins/guard/shell-guard-loader.ts', 'plugins/guard/cached-shell-guard.ts'),
    yamlAsEsm,
  ],
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
