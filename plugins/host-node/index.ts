export { createNodeHost } from './node-host.ts';
export { writeFileAtomic, writeFileExclusive } from './atomic-write.ts';
export { spawnProcess } from './spawn-process.ts';
export { sluiceRoot, sluiceAsset } from './sluice-assets.ts';
export { readBounded, readBoundedSync } from './read-bounded.ts';
