import type { Host, Kernel } from '../../core/index.ts';
import type { Fingerprint } from './state/workflow-state-schema.ts';
import { computeFingerprint, createFingerprinter } from './workspace/workspace-fingerprint.ts';

/** The project a lifecycle operation works on, plus the shared, coalescing fingerprinter. */
export interface LifecycleContext {
  readonly kernel: Kernel;
  readonly host: Host;
  /** Absolute project root; artifact and state paths are relative to it. */
  readonly root: string;
  fingerprint(): Promise<Fingerprint | null>;
  now(): string;
}

export function createLifecycleContext(kernel: Kernel, root: string = kernel.projectRoot): LifecycleContext {
  const { host } = kernel;
  return {
    kernel,
    host,
    root,
    fingerprint: createFingerprinter(() => computeFingerprint(host, root)),
    now: () => host.now().toISOString(),
  };
}
