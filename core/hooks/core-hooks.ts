import type { DelegateMode, DelegateResult } from '../delegate/contract.ts';
import type { HeartbeatEvent } from '../delegate/run-heartbeat.ts';
import type { Kernel } from '../kernel/kernel-types.ts';
import type { QueueProgressEvent } from '../queue/job-queue.ts';
import type { JournalSpec } from '../store/journaled-store.ts';
import { defineHook } from './define-hook.ts';
import type { HookSpecs } from './hook-types.ts';

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

/** A journal of records a plugin keeps in a project, for `sluice anchor` (which each plugin's journals are is the plugin's business). */
export interface RecordJournals {
  root: string;
  add(journal: JournalSpec & { label: string }): void;
}

export interface DelegateFinishEvent extends DelegateResult {
  label?: string;
}

/** The hooks the kernel itself declares. Progress and delegate events are observers: their errors never stop a run. */
export const coreHooks = {
  /** After every plugin has loaded; plugins finish wiring that needs the full registries. */
  'kernel:ready': defineHook.series<[Kernel]>({ timeoutMs: 30_000, description: 'all plugins loaded' }),
  'records:journals': defineHook.series<[RecordJournals]>({ timeoutMs: 30_000, description: "list the project's journals of records (for `sluice anchor`)" }),
  'queue:progress': defineHook.parallel<[QueueProgressEvent]>({ observer: true, description: 'a job was queued, started, finished, failed or cancelled' }),
  'delegate:start': defineHook.parallel<[DelegateStartEvent]>({ observer: true, description: 'a delegate attempt starts' }),
  'delegate:output': defineHook.parallel<[DelegateOutputEvent]>({ observer: true, description: 'a chunk of delegate output' }),
  'delegate:finish': defineHook.parallel<[DelegateFinishEvent]>({ observer: true, description: 'a delegate run finished (any status)' }),
  'delegate:heartbeat': defineHook.parallel<[HeartbeatEvent]>({
    observer: true,
    description: 'a delegate run is still going (every delegates.<name>.heartbeat seconds, default 30)',
  }),
};

declare module './hook-types.ts' {
  interface Hooks extends HookSpecs<typeof coreHooks> {}
}
