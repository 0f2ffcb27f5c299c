import type { Host } from '../../../core/index.ts';

/**
 * The registry sluice ships (the reference file, unchanged). Its own module, so the dashboard
 * commands that only need this path do not load pack resolution (and its package resolver).
 */
export const bundledRegistryPath = (host: Host) => host.asset('plugins', 'sdlc', 'assets', 'phase-registry.yaml');
