import { createRequire as moduleRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Yaml from 'yaml';
import { loadCached, saveCodeCache } from '../code-cache/index.ts';

let library: typeof Yaml | undefined;

/**
 * The yaml library, loaded on first use instead of with the kernel: ~100 KB of code that a command
 * whose data files all come from the parse cache (a repeated `gate` or `status`) never needs.
 * Synchronous, because parsing is: the library's own CommonJS file beside the chunks, run through
 * V8's code cache dist/yaml.cache (the first command after a change parses every file, and compiling
 * the parser was a good part of that). The bundle (scripts/build.mjs) puts this module in place of
 * core/store/yaml-library.ts, so core itself never touches node:module.
 */
export function yamlLibrary(): typeof Yaml {
  if (library) return library;
  // Bundled code sits in dist/chunks/ (shared chunks) or dist/ (entry points); the library is dist/yaml.cjs.
  const spec = fileURLToPath(new URL(/\/chunks\/[^/]*$/.test(import.meta.url) ? '../yaml.cjs' : './yaml.cjs', import.meta.url));
  const cacheFile = spec.replace(/\.cjs$/, '.cache');
  const loaded = loadCached<typeof Yaml>(spec, cacheFile, moduleRequire(spec));
  // Without a usable cache (the build's first use, another Node), one is made when this process ends, with what it compiled.
  if (loaded.compiled) process.once('exit', () => saveCodeCache(loaded, cacheFile));
  library = loaded.exports;
  return library;
}
