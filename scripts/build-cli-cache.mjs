// The CLI's command runner as one CommonJS file, dist/sluice-cli.cjs, run through V8's code cache
// dist/sluice-cli.cache by dist/cli-loader.cjs (bin/sluice.cjs) and by dist/sluice.mjs: Node 20 caches
// no compiled code for ES modules or `require`, and compiling the runner's ~30 modules was most of
// what a short command like `sluice gate` cost on top of Node's own start. Called by build.mjs.
import { build } from 'esbuild';
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { lazyBuiltins } from './lazy-builtins.mjs';

/**
 * Code run by vm.Script cannot use `import()` (Node wants an experimental flag for it), so the
 * runner's few run-time imports (a plugin file, tsx, a node: module loaded late) go through a real
 * CommonJS module beside it, dist/dynamic-import.cjs, whose own `import()` works as usual.
 */
const IMPORT_CALL = /(?<![\w$.])import\((?=[\w$"'`])/g;
const DYNAMIC_IMPORT = '__sluiceImport';

/**
 * Built-in modules the runner requires on first use (not a swap: the same Node modules, loaded later) instead of at start-up (lazy-builtins.mjs): a short
 * command such as `gate` or `status` starts no process and writes nothing through fs/promises.
 */
const LAZY_BUILTINS = ['child_process', 'fs/promises', 'stream/promises', 'timers/promises', 'string_decoder', 'assert', 'crypto', 'os', 'tty'];

/**
 * The bundle with its few raw non-ASCII characters (esbuild leaves them in regular expressions and
 * some templates) written as `\uXXXX` escapes, which mean the same there: an ASCII file is read as
 * Latin-1 (plugins/host-node/code-cache.ts), which is cheaper than decoding UTF-8 and keeps the source one byte a
 * character. A character after a backslash would change meaning when escaped: the build stops then.
 */
function asciiOnly(text) {
  if (/\\[^\x00-\x7f]/.test(text)) throw new Error('build: the CLI runner has an escaped non-ASCII character; revisit asciiOnly');
  return text.replace(/[^\x00-\x7f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * The runner is written already wrapped as plugins/host-node/code-cache.ts wraps a CommonJS bundle
 * (its WRAPPER_START, checked by test/host-node/code-cache.test.ts): the loader then compiles the file's own text, with no
 * 1 MB copy at every start. Run as a plain CommonJS file it would define that function and do nothing.
 */
const WRAPPER_START = '(function (exports, require, module, __filename, __dirname) {';
const wrapped = (text) => `${WRAPPER_START}${text}\n})\n`;

/**
 * Ends the bundle with its build id (a hash of the rest; the line plugins/host-node/code-cache.ts looks for), so a
 * code cache is matched to its bundle by that line instead of by a full copy of the bundle in the cache.
 */
const withBuildId = (text) => `${text.endsWith('\n') ? text : `${text}\n`}//# sluice-build=${createHash('sha256').update(text).digest('hex').slice(0, 32)}\n`;

/**
 * esbuild settings shared with the guard's CommonJS build; `plugins`: the ESM build's (none replaces a
 * project module). Returns the build's metafile.
 */
export async function buildCachedCli({ root, common, define, plugins }) {
  const meta = '__sluiceImportMetaUrl';
  const { metafile } = await build({
    ...common,
    metafile: true,
    entryPoints: { 'sluice-cli': 'plugins/cli/run-cli.ts', 'cli-loader': 'plugins/cli/cli-loader.ts' },
    outExtension: { '.js': '.cjs' },
    define: { ...define, 'import.meta.url': meta },
    banner: {
      js: `const ${meta}=require("node:url").pathToFileURL(__filename).href,${DYNAMIC_IMPORT}=(s)=>require(require("node:path").join(__dirname,"dynamic-import.cjs"))(s);`,
    },
    external: ['tsx', 'tsx/*', 'bullmq', 'ioredis', '@modelcontextprotocol/sdk', '@modelcontextprotocol/sdk/*'],
    plugins: [...plugins, lazyBuiltins(LAZY_BUILTINS)],
  });
  const runner = join(root, 'dist/sluice-cli.cjs');
  const text = await readFile(runner, 'utf8');
  await writeFile(runner, withBuildId(wrapped(asciiOnly(text.replace(IMPORT_CALL, `${DYNAMIC_IMPORT}(`)))));
  await writeFile(join(root, 'dist/dynamic-import.cjs'), "'use strict';\nmodule.exports = (specifier) => import(specifier);\n");
  await primeCliCodeCache(root, common);
  return metafile;
}

/** Runs `init`, `gate` and `status` on a scratch project with the runner, then saves V8's code cache of what they compiled. */
async function primeCliCodeCache(root, common) {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-build-cli-'));
  try {
    const prime = join(dir, 'prime.cjs');
    await build({ ...common, outdir: undefined, entryPoints: ['plugins/cli/prime-cli-cache.ts'], outfile: prime });
    // V8 accepts a cache only under the same flags: make it as the CLI runs, without NODE_OPTIONS.
    const { NODE_OPTIONS: _flags, ...env } = process.env;
    const args = [prime, join(root, 'dist/sluice-cli.cjs'), join(root, 'dist/sluice-cli.cache'), join(dir, 'project')];
    const made = spawnSync(process.execPath, args, {
      env: { ...env, SLUICE_CACHE_DIR: join(dir, 'cache'), NO_COLOR: '1' },
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (made.status !== 0) throw new Error('build: priming the CLI code cache failed');
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
