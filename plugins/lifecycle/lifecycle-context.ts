import type { Host, Kernel } from '../../core/index.ts';
import type { Fingerprint } from './state/workflow-state-schema.ts';
import { createFingerprinter, readWorkspace, type WorkspaceSnapshot } from './workspace/workspace-fingerprint.ts';

/** The project a lifecycle operation works on, plus the shared, coalescing fingerprinter. */
export interface LifecycleContext {
  readonly kernel: Kernel;
  readonly host: Host;
  /** Absolute project root; artifact and state paths are relative to it. */
  readonly root: string;
  /** Git status and fingerprint, taken after the call (concurrent callers share one git run); null outside git. */
  workspace(): Promise<WorkspaceSnapshot | null>;
  fingerprint(): Promise<Fingerprint | null>;
  now(): string;
}

export function createLifecycleContext(kernel: Kernel, root: string = kernel.projectRoot): LifecycleContext {
  const { host } = kernel;
  const workspace = createFingerprinter(() => readWorkspace(host, root));
  return {
    kernel,
    host,
    root,
    workspace,
    fingerprint: async () => (await workspace())?.fingerprint ?? null,
    now: () => host.now().toISOString(),
  };
}
