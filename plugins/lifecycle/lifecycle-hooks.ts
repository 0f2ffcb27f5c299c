import type { HookDeclaration, HookSpec } from '../../core/index.ts';
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

declare module '../../core/hooks/hook-types.ts' {
  interface Hooks {
    'lifecycle:transition': HookSpec<'parallel', [LifecycleTransitionEvent]>;
  }
}

export const lifecycleHooks: Record<'lifecycle:transition', HookDeclaration> = {
  'lifecycle:transition': { kind: 'parallel', observer: true, description: 'a requirement changed lifecycle state (after the write)' },
};
