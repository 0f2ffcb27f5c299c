/**
 * The typed hook bus. `Hooks` maps each hook name to its kind, its arguments and its result;
 * plugins add hooks by declaration merging:
 *
 *   declare module '../../core/hooks/hook-types.ts' {
 *     interface Hooks { 'phase:advanced': HookSpec<'parallel', [PhaseAdvancedEvent]> }
 *   }
 *
 * The kind decides how handlers combine and is fixed where the hook is declared, never by the caller:
 * - series:    handlers run one after another; results are ignored.
 * - parallel:  handlers run at the same time; results are ignored.
 * - first:     handlers run in order until one returns something other than undefined/null; that value wins.
 * - waterfall: each handler receives the previous handler's value (the first gets the call's first argument).
 */
export type HookKind = 'series' | 'parallel' | 'first' | 'waterfall';

export interface HookSpec<K extends HookKind, A extends unknown[], R = void> {
  kind: K;
  args: A;
  result: R;
}

// Filled in by declaration merging, by core and by plugins.
// eslint-disable-next-line @typescript-eslint/no-empty-interface
export interface Hooks {}

export type HookName = keyof Hooks & string;
type SpecOf<N extends HookName> = Hooks[N] extends HookSpec<infer K, infer A, infer R> ? { kind: K; args: A; result: R } : never;
export type HookKindOf<N extends HookName> = SpecOf<N>['kind'];
export type HookArgs<N extends HookName> = SpecOf<N>['args'];

/** What a handler may return for hook N. */
export type HookHandlerReturn<N extends HookName> = SpecOf<N>['kind'] extends 'first'
  ? SpecOf<N>['result'] | undefined | null
  : SpecOf<N>['kind'] extends 'waterfall'
    ? SpecOf<N>['args'][0] | undefined | void
    : void;

/** What `call` resolves to for hook N. */
export type HookCallResult<N extends HookName> = SpecOf<N>['kind'] extends 'first'
  ? SpecOf<N>['result'] | undefined
  : SpecOf<N>['kind'] extends 'waterfall'
    ? SpecOf<N>['args'][0]
    : void;

export type HookHandler<N extends HookName> = (...args: HookArgs<N>) => HookHandlerReturn<N> | Promise<HookHandlerReturn<N>>;

export interface HookDeclaration<K extends HookKind = HookKind> {
  kind: K;
  /**
   * Observer hooks (loggers, progress, notifications): a failing handler is reported through
   * `onObserverError` and the run goes on. Other hooks fail the call with a decorated error,
   * which for a vetoing hook means the guarded action does not happen (fail closed).
   */
  observer?: boolean;
  /** Per-handler time limit; a slower async handler fails with HOOK_TIMEOUT. */
  timeoutMs?: number;
  description?: string;
}

export interface HookHandlerOptions {
  /** Lower runs first; handlers with the same order keep registration order. Default 0. */
  order?: number;
}

/** Tracing interceptors: see every handler invocation. Only installed interceptors cost anything. */
export interface HookInterceptor {
  beforeEach?(event: { hook: string; plugin: string; args: readonly unknown[] }): void;
  afterEach?(event: { hook: string; plugin: string; durationMs: number; error?: unknown; result?: unknown }): void;
}
