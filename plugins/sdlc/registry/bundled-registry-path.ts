import { sluiceAsset } from '../../host-node/index.ts';

/**
 * The registry sluice ships (the reference file, unchanged). Its own module, so the dashboard
 * commands that only need this path do not load pack resolution (and its package resolver).
 */
export const bundledRegistryPath = () => sluiceAsset('plugins', 'sdlc', 'assets', 'phase-registry.yaml');
