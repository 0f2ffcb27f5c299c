import type { HookOptions, TypedHookDeclaration } from './hook-types.ts';

/**
 * Declares one hook: the function names its kind, the type arguments its arguments (and, for `first`,
 * its result). The one value is both what the kernel runs and what `HookSpecs` turns into the types.
 */
export const defineHook = {
  /** Handlers run one after another; results are ignored. */
  series: <A extends unknown[]>(options: HookOptions = {}): TypedHookDeclaration<'series', A> => ({ kind: 'series', ...options }),
  /** Handlers run at the same time; results are ignored. */
  parallel: <A extends unknown[]>(options: HookOptions = {}): TypedHookDeclaration<'parallel', A> => ({ kind: 'parallel', ...options }),
  /** Handlers run in order until one returns something other than undefined/null; that value wins. */
  first: <A extends unknown[], R>(options: HookOptions = {}): TypedHookDeclaration<'first', A, R> => ({ kind: 'first', ...options }),
  /** Each handler receives the previous handler's value (the first gets the call's first argument). */
  waterfall: <A extends [unknown, ...unknown[]]>(options: HookOptions = {}): TypedHookDeclaration<'waterfall', A> => ({ kind: 'waterfall', ...options }),
};
