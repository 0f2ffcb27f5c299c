// Not `createRequire`: a bundle's banner declares that name (scripts/build.mjs, test/helpers/bundle-script.ts).
import { createRequire as moduleRequire } from 'node:module';
import { plainYaml, type YamlLibrary } from '../../core/index.ts';
import { builtBeside } from './built-beside.ts';
import { loadCached, saveCodeCache } from './code-cache.ts';

let library: YamlLibrary | undefined;

/**
 * The Node host's `yaml()`: the library, loaded on first use instead of with the kernel, ~100 KB of
 * code that a command whose data files all come from the parse cache (a repeated `gate` or `status`)
 * never needs. Synchronous, because parsing is. In the bundle it is the library's own CommonJS file
 * the build put beside it (dist/yaml.cjs), run through V8's code cache dist/yaml.cache (the first
 * command after a change parses every file, and compiling the parser was a good part of that); from
 * source (or bundled without it), core's plain import.
 */
export function nodeYamlLibrary(): YamlLibrary {
  if (library) return library;
  const bundled = builtBeside(import.meta.url, 'yaml.cjs');
  if (bundled === undefined) {
    library = plainYaml();
    return library;
  }
  const cacheFile = bundled.replace(/\.cjs$/, '.cache');
  const loaded = loadCached<YamlLibrary>(bundled, cacheFile, moduleRequire(bundled));
  // Without a usable cache (the build's first use, another Node), one is made when this process ends, with what it compiled.
  if (loaded.compiled) process.once('exit', () => saveCodeCache(loaded, cacheFile));
  library = loaded.exports;
  return library;
}
