import { mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { loadCached, saveCodeCache } from '../host-node/code-cache.ts';
import type * as RunCli from './run-cli.ts';

/**
 * Build step (scripts/build-cli-cache.mjs): `node prime.cjs RUNNER CACHE DIR` makes a project in DIR
 * and runs the commands whose start-up matters most on it (twice: the second run reads the parse
 * cache), so the functions they need are compiled, then saves V8's code cache of them beside the
 * runner. Only speed depends on it: the output here is discarded.
 */
const COMMANDS = [['init'], ['gate'], ['status'], ['gate'], ['status'], ['gate', '--json'], ['status', '--json']];

const [runner, cacheFile, project] = process.argv.slice(2);
if (!runner || !cacheFile || !project) throw new Error('usage: prime-cli-cache RUNNER CACHE DIR');
rmSync(cacheFile, { force: true });
mkdirSync(project, { recursive: true });
const loaded = loadCached<typeof RunCli>(runner, cacheFile, createRequire(runner));
(async () => {
  for (const args of COMMANDS) {
    const code = await loaded.exports.runCli(['--cwd', project, ...args]);
    if (code > 1) throw new Error(`sluice ${args.join(' ')} exited ${code}`);
  }
  if (!saveCodeCache(loaded, cacheFile)) throw new Error(`could not write ${cacheFile}`);
})().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
