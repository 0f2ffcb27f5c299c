import { createRequire as moduleRequire } from 'node:module';
import { builtBeside } from '../host-node/built-beside.ts';
import { loadCached, saveCodeCache } from '../host-node/code-cache.ts';
import type * as RunCli from './run-cli.ts';

/**
 * Runs one command line (run-cli.ts) and returns its exit code. Chosen at run time: beside a bundle
 * (dist/cli-loader.cjs from bin/sluice.cjs, a chunk of dist/sluice.mjs) the runner is the build's
 * dist/sluice-cli.cjs, one CommonJS file run through V8's code cache dist/sluice-cli.cache (made by the
 * build after a warm-up run of `gate` and `status`): Node 20 caches no compiled code for ES modules or
 * `require`, and compiling the runner's modules was most of a short command's start-up. From source it
 * is run-cli.ts itself. A missing cache, or one made by another Node or under other V8 flags, costs only
 * speed: the file is compiled as usual and a fresh cache is written after the command ran (when dist/
 * is writable).
 */
export async function runSluice(argv: readonly string[]): Promise<number> {
  const file = builtBeside(import.meta.url, 'sluice-cli.cjs');
  if (file === undefined) {
    // Left unbundled by the build (scripts/build.mjs, sourceOnly): bundled code takes the branch below.
    const { runCli } = await import('./run-cli.ts');
    return runCli(argv);
  }
  const cacheFile = file.replace(/\.cjs$/, '.cache');
  const loaded = loadCached<typeof RunCli>(file, cacheFile, moduleRequire(file));
  try {
    return await loaded.exports.runCli(argv);
  } finally {
    if (loaded.compiled) saveCodeCache(loaded, cacheFile);
  }
}
