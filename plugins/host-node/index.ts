export { createNodeHost } from './node-host.ts';
export { writeFileAtomic, writeFileExclusive } from './atomic-write.ts';
export { spawnProcess } from './spawn-process.ts';
export { OPEN_READ_FLAGS, readBounded, readBoundedSync, requireRegular } from './read-bounded.ts';
