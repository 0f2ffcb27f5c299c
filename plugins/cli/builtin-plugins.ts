import { builtinFaces } from './builtin-manifest.ts';

/**
 * Every built-in plugin at once: for tests, benches and embedders that want the whole set. The CLI
 * itself plans each command line with `planCommand` (builtin-manifest.ts) and sets up only what it needs.
 */
export const builtinPlugins = [...builtinFaces];
