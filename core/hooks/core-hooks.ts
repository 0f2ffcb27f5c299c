import type { DelegateMode, DelegateResult } from '../delegate/contract.ts';
import type { HeartbeatEvent } from '../delegate/run-heartbeat.ts';
import type { Kernel } from '../kernel/kernel-types.ts';
import type { QueueProgressEvent } from '../queue/job-queue.ts';
import type { HookDeclaration, HookSpec } from './hook-types.ts';

export interface DelegateStartEvent {
  backend: string;
  mode: DelegateMode;
  cwd: string;
  label?: string;
  transcriptPath: string;
  attempt: number;
}

export interface DelegateOutputEvent {
  backend: string;
  label?: string;
  stream: 'stdout' | 'stderr';
  chunk: string;
}

export interface DelegateFinishEvent extends DelegateResult {
  label?: string;
}

declare module './hook-types.ts' {
  interface Hooks {
    /** After every plugin has loaded; plugins finish wiring that needs the full registries. */
    'kernel:ready': HookSpec<'series', [Kernel]>;
    'queue:progress': HookSpec<'parallel', [QueueProgressEvent]>;
    'delegate:start': HookSpec<'parallel', [DelegateStartEvent]>;
    'delegate:output': HookSpec<'parallel', [DelegateOutputEvent]>;
    'delegate:finish': HookSpec<'parallel', [DelegateFinishEvent]>;
    'delegate:heartbeat': HookSpec<'parallel', [HeartbeatEvent]>;
  }
}

/** The hooks the kernel itself declares. Progress and delegate events are observers: their errors never stop a run. */
export const coreHooks: Record<string, HookDeclaration> = {
  'kernel:ready': { kind: 'series', timeoutMs: 30_000, description: 'all plugins loaded' },
  'queue:progress': { kind: 'parallel', observer: true, description: 'a job was queued, started, finished, failed or cancelled' },
  'delegate:start': { kind: 'parallel', observer: true, description: 'a delegate attempt starts' },
  'delegate:output': { kind: 'parallel', observer: true, description: 'a chunk of delegate output' },
  'delegate:finish': { kind: 'parallel', observer: true, description: 'a delegate run finished (any status)' },
  'delegate:heartbeat': {
    kind: 'parallel',
    observer: true,
    description: 'a delegate run is still going (every delegates.<name>.heartbeat seconds, default 30)',
  },
};
