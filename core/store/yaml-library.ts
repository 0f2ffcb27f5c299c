import * as Yaml from 'yaml';

/**
 * The yaml library. Core stays free of Node APIs, so from source this is the plain import; the CLI
 * bundle swaps this module for plugins/host-node/lazy-yaml-library.ts (scripts/build.mjs), which
 * loads the library on first use instead of with every command.
 */
export function yamlLibrary(): typeof Yaml {
  return Yaml;
}
