import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadCached, saveCodeCache } from '../code-cache/index.ts';
import type * as RunCli from './run-cli.ts';

/**
 * cli-loader.ts as the bundle has it: the command runner from dist/sluice-cli.cjs, one CommonJS file
 * run through V8's code cache dist/sluice-cli.cache (made by the build after a warm-up run of `gate`
 * and `status`). Node 20 caches no compiled code for ES modules or `require`, and compiling the
 * runner's modules was most of a short command's start-up. A missing cache, or one made by another
 * Node or under other V8 flags, costs only speed: the file is compiled as usual and a fresh cache is
 * written after the command ran (when dist/ is writable).
 */
export async function runSluice(argv: readonly string[]): Promise<number> {
  // The runner is in dist/; this code is in dist/cli-loader.cjs (bin/sluice.cjs) or in a chunk of dist/sluice.mjs.
  const dist = fileURLToPath(new URL(/\/chunks\/[^/]*$/.test(import.meta.url) ? '..' : '.', import.meta.url));
  const file = join(dist, 'sluice-cli.cjs');
  const cacheFile = join(dist, 'sluice-cli.cache');
  const loaded = loadCached<typeof RunCli>(file, cacheFile, createRequire(file));
  try {
    return await loaded.exports.runCli(argv);
  } finally {
    if (loaded.compiled) saveCodeCache(loaded, cacheFile);
  }
}
