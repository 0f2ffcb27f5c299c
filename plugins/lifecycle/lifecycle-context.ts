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
  /**
   * The snapshot `workspace()` returned last, of any age (taken now when there is none): for text that
   * informs (a prompt's list of changed files), never for a check or a record.
   */
  lastWorkspace(): Promise<WorkspaceSnapshot | null>;
  fingerprint(): Promise<Fingerprint | null>;
  now(): string;
}

export function createLifecycleContext(kernel: Kernel, root: string = kernel.projectRoot): LifecycleContext {
  const { host } = kernel;
  const take = createFingerprinter(() => readWorkspace(host, root));
  let last: WorkspaceSnapshot | null | undefined;
  const workspace = async () => (last = await take());
  return {
    kernel,
    host,
    root,
    workspace,
    lastWorkspace: async () => (last === undefined ? workspace() : last),
    fingerprint: async () => (await workspace())?.fingerprint ?? null,
    now: () => host.now().toISOString(),
  };
}
