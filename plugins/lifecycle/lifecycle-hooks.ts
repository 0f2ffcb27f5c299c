import { defineHook, type HookSpecs } from '../../core/index.ts';
import type { Stage, StageResult, Status } from './transition-table.ts';

/** One accepted change of a requirement's workflow state. */
export interface LifecycleTransitionEvent {
  slug: string;
  root: string;
  from: Status | null;
  to: Status | null;
  stage: Stage | null;
  stageResult: StageResult | null;
  nextStage: Stage | null;
  /** The transition table row (or `start`, `recovery`, `blocked:<rule>`, `unblock:<rule>`). */
  row: string;
  caller: string | null;
  /** Time of the locked read-validate-write, including the atomic write. */
  writeMs: number;
  at: string;
}

export const lifecycleHooks = {
  'lifecycle:transition': defineHook.parallel<[LifecycleTransitionEvent]>({
    observer: true,
    description: 'a requirement changed lifecycle state (after the write)',
  }),
};

declare module '../../core/hooks/hook-types.ts' {
  interface Hooks extends HookSpecs<typeof lifecycleHooks> {}
}
