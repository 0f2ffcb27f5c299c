import { createRequire as moduleRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import type * as Yaml from 'yaml';

/** Set by the bundle (scripts/build.mjs), which ships the library as dist/yaml.cjs. */
declare const __SLUICE_BUNDLED_YAML__: boolean | undefined;

let library: typeof Yaml | undefined;

/**
 * The yaml library, loaded on first use instead of with the kernel: ~100 KB of code that a command
 * whose data files all come from the parse cache (a repeated `gate` or `status`) never needs.
 * Synchronous, because parsing is; from source it is the installed package, in the bundle the
 * library's own file beside the chunks.
 */
export function yamlLibrary(): typeof Yaml {
  if (library) return library;
  const bundled = typeof __SLUICE_BUNDLED_YAML__ === 'boolean' && __SLUICE_BUNDLED_YAML__;
  // Bundled code sits in dist/chunks/ (shared chunks) or dist/ (entry points); the library is dist/yaml.cjs.
  const spec = bundled ? fileURLToPath(new URL(/\/chunks\/[^/]*$/.test(import.meta.url) ? '../yaml.cjs' : './yaml.cjs', import.meta.url)) : 'yaml';
  library = moduleRequire(import.meta.url)(spec) as typeof Yaml;
  return library;
}
