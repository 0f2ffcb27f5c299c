import type { GateResult, HookDeclaration, HookSpec } from '../../core/index.ts';
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

declare module '../../core/hooks/hook-types.ts' {
  interface Hooks {
    /** Veto: a handler returns a reason string to refuse the transition; a throwing handler refuses too. */
    'phase:beforeAdvance': HookSpec<'first', [BeforeAdvanceEvent], string>;
    'phase:advanced': HookSpec<'parallel', [PhaseAdvancedEvent]>;
    'gate:result': HookSpec<'parallel', [GateResultEvent]>;
  }
}

export const sdlcHooks = {
  'phase:beforeAdvance': {
    kind: 'first',
    timeoutMs: 30_000,
    description: 'veto a phase transition (advance, skip, re-entry): return a reason string; errors veto too',
  },
  'phase:advanced': { kind: 'parallel', observer: true, description: 'a phase transition was written to state.yaml' },
  'gate:result': { kind: 'parallel', observer: true, description: 'one gate type finished for a phase' },
} as const satisfies Record<string, HookDeclaration>;
