import { relative } from 'pathe';
import { isInside, resolveInside } from '../paths/inside.ts';
import type { Kernel } from './kernel-types.ts';

/**
 * The same kernel (host, queue, store, registries, config) seen from another project root: what a
 * workflow needs when the project it works on is not the folder the process started in (a demo's
 * sub-project, a queue worker serving jobs for a project elsewhere).
 */
export function kernelRootedAt(kernel: Kernel, root: string): Kernel {
  if (kernel.projectRoot === root) return kernel;
  return {
    ...kernel,
    projectRoot: root,
    display: (p) => (isInside(root, p) ? relative(root, p) || '.' : p),
    resolveInProject: (p, what) => resolveInside(root, p, what),
  };
}
