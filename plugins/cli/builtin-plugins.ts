import { loadBuiltinPlugins } from './builtin-manifest.ts';

/**
 * Every built-in plugin, loaded at once: for tests, benches and embedders that want the whole set.
 * The CLI itself uses `loadBuiltinPlugins(command)` from builtin-manifest.ts and loads only what it needs.
 */
export const builtinPlugins = await loadBuiltinPlugins();
