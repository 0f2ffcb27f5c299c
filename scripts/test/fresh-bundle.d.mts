/** dist/sluice.mjs's absolute path. */
export const bundledCli: string;
/** True when dist/sluice.mjs is newer than every file it is built from. */
export function bundleIsFresh(): boolean;
/** dist/sluice.mjs, built first (once, under a lock) when stale. */
export function freshBundle(): string;
