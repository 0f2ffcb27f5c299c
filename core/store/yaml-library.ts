import type * as Yaml from 'yaml';
import { plainYaml } from './plain-yaml.ts';

/** The yaml library's module, as `import * as Yaml from 'yaml'` gives it. */
export type YamlLibrary = typeof Yaml;

let provider: () => YamlLibrary = plainYaml;

/**
 * Makes `host.yaml` the library core's YAML codecs use. Hosts call it when they are made
 * (createNodeHost, createMemoryHost): parsing is synchronous and has no host at hand, and each host
 * knows how to get the library (the Node host's bundle loads dist/yaml.cjs on first use, in memory
 * it is the plain import).
 */
export function useYamlOf(host: { yaml(): YamlLibrary }): void {
  provider = () => host.yaml();
}

/**
 * The yaml library, from the Host made last (`Host.yaml`); before any, the plain import (which the
 * bundle loads only when first read: scripts/lazy-builtins.mjs).
 */
export function yamlLibrary(): YamlLibrary {
  return provider();
}
