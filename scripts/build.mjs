#!/usr/bin/env node
// Bundles the CLI into dist/sluice.mjs. Code splitting keeps cold start low: each command's
// heavy modules live in their own chunk and load only when that command runs.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildCachedCli } from './build-cli-cache.mjs';
import { lazyPackages } from './lazy-builtins.mjs';
import { parserPatches } from './guard-parser-patches.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));

// Retried: a command running from the old dist/ may be writing a code cache into it (ENOTEMPTY).
await rm(new URL('../dist', import.meta.url), { recursive: true, force: true, maxRetries: 5 });

/**
 * For dist/yaml.cjs, the library the Node host loads: yaml's ES module build instead of its CommonJS one: one scope, no wrapper per file, ~5 ms less to
 * load. The one difference is how the library logs a warning (console.warn there, process.emitWarning
 * in its Node build): patched back to Node's. Not a swap: it picks a third-party package's other build,
 * no project module is replaced.
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

/**
 * Makes `import(SPEC)` in a file matching `importer` load `to` beside the output at run time instead of
 * bundling it. Not a swap: `to` is that very module (SPEC) as the guard's own build outputs it.
 */
const loadAtRunTime = (importer, spec, to) => ({
  name: `run-time ${to}`,
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) =>
      args.kind === 'dynamic-import' && args.path === spec && importer.test(args.importer) ? { path: to, external: true } : undefined,
    );
  },
});

/**
 * Leaves `import(SPEC)` in a file matching `importer` unbundled (external, the specifier unchanged): the
 * branch that takes it runs only from source, because the module beside the bundle (cli-loader.ts,
 * shell-guard-loader.ts look for it at run time) is that code built on its own. Not a swap: nothing is
 * put in another module's place; bundling the source branch would copy the runner or the shell parser
 * into a CommonJS file that never runs it.
 */
const sourceOnly = (importer, spec) => ({
  name: `source-only ${spec}`,
  setup(b) {
    b.onResolve({ filter: /\.ts$/ }, (args) =>
      args.kind === 'dynamic-import' && args.path === spec && importer.test(args.importer) ? { path: spec, external: true } : undefined,
    );
  },
});
/**
 * The kernel gets the yaml library from its Host (the Node host loads dist/yaml.cjs on first use); only a
 * caller that made no Host reaches core's plain `yaml` import, so the bundles require it on first read.
 */
const plainYamlOnFirstUse = lazyPackages(['yaml']);
const runnerFromSource = sourceOnly(/plugins[\\/]cli[\\/]cli-loader\.ts$/, './run-cli.ts');
const shellGuardFromSource = sourceOnly(/plugins[\\/]guard[\\/]shell-guard-loader\.ts$/, './shell-guard.ts');

/**
 * bash-parser reads `$((...))` with babylon, a whole JavaScript parser (half of the guard's shell
 * bundle). In guard-shell.cjs its one call, `parse`, loads it from guard-arith.cjs on first use, so
 * commands without arithmetic neither load nor compile it. Same code, same result, loaded later. Not a
 * swap: it lazy-loads a third-party dependency of a third-party package.
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

const metafiles = {};
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
    // Commands run dist/sluice-cli.cjs through V8's code cache (built below by build-cli-cache.mjs): cli-loader.ts finds it at run time.
    runnerFromSource,
    plainYamlOnFirstUse,
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
metafiles.esm = result.metafile;
metafiles.guard = (
  await build({
    ...guardBuild,
    metafile: true,
    entryPoints: { guard: 'plugins/guard/guard-main.ts', 'guard-shell': 'plugins/guard/shell-guard.ts', 'guard-arith': 'babylon' },
    outExtension: { '.js': '.cjs' },
    // guard.cjs loads guard-shell.cjs beside it at run time (shell-guard-loader.ts).
    plugins: [shellGuardFromSource, lazyBabylon, parserPatches],
  })
).metafile;
await primeGuardCodeCache();
// The yaml library as one self-contained CommonJS file (the guard's build settings), required
// synchronously the first time a command parses or writes YAML.
// The Node host's yaml() finds it at run time (plugins/host-node/yaml-library.ts).
metafiles.yaml = (
  await build({ ...guardBuild, metafile: true, entryPoints: { yaml: 'yaml' }, outExtension: { '.js': '.cjs' }, plugins: [yamlAsEsm] })
).metafile;
metafiles.cli = await buildCachedCli({
  root,
  common: guardBuild,
  define: { __SLUICE_VERSION__: JSON.stringify(pkg.version) },
  plugins: [
    runnerFromSource,
    // `sluice hooks` and a `guard` with arguments judge shell commands with the guard's own dist/guard-shell.cjs (and its cache), not a second copy of the parser.
    shellGuardFromSource,
    plainYamlOnFirstUse,
  ],
});
// What each build bundled, for test/layout (the bundle holds exactly the modules the source imports reach). Not shipped (package.json `files`).
await mkdir(new URL('../dist/meta', import.meta.url), { recursive: true });
for (const [name, meta] of Object.entries(metafiles)) await writeFile(new URL(`../dist/meta/${name}.json`, import.meta.url), JSON.stringify(meta));
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
