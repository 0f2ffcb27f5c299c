import type * as Yaml from 'yaml';

/** The yaml library's module, as `import * as Yaml from 'yaml'` gives it. */
export type YamlLibrary = typeof Yaml;

let provider: (() => YamlLibrary) | undefined;

/**
 * Makes `host.yaml` the library core's YAML codecs use. Hosts call it when they are made
 * (createNodeHost, createMemoryHost): parsing is synchronous and has no host at hand, and each
 * host knows how to get the library (the Node host's bundle loads dist/yaml.cjs on first use,
 * from source and in memory it is the plain import).
 */
export function useYamlOf(host: { yaml(): YamlLibrary }): void {
  provider = () => host.yaml();
}

/** The yaml library, from the Host that was made last (`Host.yaml`). */
export function yamlLibrary(): YamlLibrary {
  if (provider === undefined) throw new Error('sluice: no YAML library yet: a Host provides it (create one with createNodeHost or createMemoryHost first)');
  return provider();
}
