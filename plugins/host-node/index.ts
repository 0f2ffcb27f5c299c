/**
 * sluice:host-node's public face: the Host for Node (node:fs, processes, the OS sandbox, the yaml
 * library) and the V8 code cache through which the CLI, the guard and the yaml library run their built
 * CommonJS files.
 */
export { hostNodePlugin } from './host-node-plugin.ts';
export { createNodeHost } from './node-host.ts';
export { writeFileAtomic, writeFileExclusive } from './atomic-write.ts';
export { spawnProcess } from './spawn-process.ts';
export { OPEN_READ_FLAGS, readBounded, readBoundedSync, requireRegular } from './read-bounded.ts';
export { loadCached, saveCodeCache, WRAPPER_START, type CachedModule } from './code-cache.ts';
export { builtBeside } from './built-beside.ts';
