import { defineHook, type GateResult, type HookSpecs } from '../../core/index.ts';
import type { Approval, HistoryEntry } from './state/history-schema.ts';

export type TransitionKind = 'advance' | 'skip' | 'reenter';

/** What a `phase:beforeAdvance` handler is asked to allow. Plain data. */
export interface BeforeAdvanceEvent {
  projectRoot: string;
  kind: TransitionKind;
  from: string;
  to: string;
  /** Gate results of the run that allows an advance; empty for skip and re-entry. */
  results: GateResult[];
  approvals: Approval[];
  justification?: string;
}

export interface PhaseAdvancedEvent {
  projectRoot: string;
  kind: TransitionKind;
  from: string;
  to: string;
  /** The history entry just written. */
  entry: HistoryEntry;
}

export interface GateResultEvent {
  projectRoot: string;
  phase: string;
  /** Gate type that produced the rows (`integrity`, `command`...). */
  type: string;
  results: GateResult[];
}

export const sdlcHooks = {
  /** Veto: a handler returns a reason string to refuse the transition; a throwing handler refuses too. */
  'phase:beforeAdvance': defineHook.first<[BeforeAdvanceEvent], string>({
    timeoutMs: 30_000,
    description: 'veto a phase transition (advance, skip, re-entry): return a reason string; errors veto too',
  }),
  'phase:advanced': defineHook.parallel<[PhaseAdvancedEvent]>({ observer: true, description: 'a phase transition was written to state.yaml' }),
  'gate:result': defineHook.parallel<[GateResultEvent]>({ observer: true, description: 'one gate type finished for a phase' }),
};

declare module '../../core/hooks/hook-types.ts' {
  interface Hooks extends HookSpecs<typeof sdlcHooks> {}
}
