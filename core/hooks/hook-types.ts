/**
 * The typed hook bus. `Hooks` maps each hook name to its kind, its arguments and its result. A plugin
 * declares each hook once, as a value that carries its types (as tapable's `new AsyncSeriesBailHook()`
 * does), and adds that same set to `Hooks` by declaration merging, so the kind the kernel runs and
 * the types handlers are checked against cannot disagree:
 *
 *   export const myHooks = {
 *     'phase:advanced': defineHook.parallel<[PhaseAdvancedEvent]>({ observer: true, description: '...' }),
 *   };
 *   declare module '../../core/hooks/hook-types.ts' {
 *     interface Hooks extends HookSpecs<typeof myHooks> {}
 *   }
 *   // in setup: ctx.declareHooks(myHooks)
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

/** Declarations of hooks of `Hooks` (what `ctx.declareHooks` takes), each with the kind its type says. */
export type HookDeclarations = { [N in HookName]?: HookDeclaration<HookKindOf<N>> };

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

/** Everything of a declaration but its kind (which the `defineHook` function chosen fixes). */
export type HookOptions = Omit<HookDeclaration, 'kind'>;

/** A hook's declaration with its argument and result types attached (type-only: `spec` is never set). */
export interface TypedHookDeclaration<K extends HookKind, A extends unknown[], R = void> extends HookDeclaration<K> {
  readonly spec?: HookSpec<K, A, R>;
}

/** The `Hooks` entries a set of typed declarations adds: `interface Hooks extends HookSpecs<typeof myHooks> {}`. */
export type HookSpecs<T extends Record<string, TypedHookDeclaration<HookKind, unknown[], unknown>>> = {
  [N in keyof T]: NonNullable<T[N]['spec']>;
};

export interface HookHandlerOptions {
  /** Lower runs first; handlers with the same order keep registration order. Default 0. */
  order?: number;
}

/** Tracing interceptors: see every handler invocation. Only installed interceptors cost anything. */
export interface HookInterceptor {
  beforeEach?(event: { hook: string; plugin: string; args: readonly unknown[] }): void;
  afterEach?(event: { hook: string; plugin: string; durationMs: number; error?: unknown; result?: unknown }): void;
}
