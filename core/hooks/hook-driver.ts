import { SluiceError, isSluiceError } from '../errors/sluice-error.ts';
import type {
  HookArgs,
  HookCallResult,
  HookDeclaration,
  HookDeclarations,
  HookHandler,
  HookHandlerOptions,
  HookInterceptor,
  HookKind,
  HookKindOf,
  HookName,
} from './hook-types.ts';

interface Registered {
  plugin: string;
  fn: (...args: unknown[]) => unknown;
  order: number;
}

interface HookState {
  name: string;
  declaredBy: string;
  decl: HookDeclaration;
  handlers: Registered[];
}

export interface HookInfo {
  name: string;
  kind: HookKind;
  observer: boolean;
  declaredBy: string;
  handlers: { plugin: string; order: number }[];
}

export interface HookDriverOptions {
  /** Where failures of observer handlers go; they never stop the run. */
  onObserverError?(error: SluiceError): void;
}

const RESOLVED: Promise<void> = Promise.resolve();
const isPromise = (v: unknown): v is Promise<unknown> => v !== null && typeof v === 'object' && typeof (v as { then?: unknown }).then === 'function';
const isEmpty = (v: unknown) => v === undefined || v === null;

/**
 * The single dispatcher for every hook, in the spirit of Rollup's PluginDriver: handlers are kept
 * sorted at registration so a call is a plain loop; sync handlers are never awaited; a hook with no
 * handlers returns a shared resolved promise.
 */
export class HookDriver {
  readonly #hooks = new Map<string, HookState>();
  readonly #interceptors: HookInterceptor[] = [];
  readonly #onObserverError: (error: SluiceError) => void;

  constructor(options: HookDriverOptions = {}) {
    this.#onObserverError = options.onObserverError ?? (() => {});
  }

  /** Declares every hook of a set made with `defineHook`. */
  declareAll(set: HookDeclarations, declaredBy = 'core'): void {
    for (const [name, decl] of Object.entries(set) as [HookName, HookDeclaration][]) if (decl) this.declare(name, decl as HookDeclaration<never>, declaredBy);
  }

  declare<N extends HookName>(name: N, decl: HookDeclaration<HookKindOf<N>>, declaredBy = 'core'): void {
    const existing = this.#hooks.get(name);
    if (existing) {
      if (existing.decl.kind !== decl.kind) {
        throw new SluiceError('HOOK_FAILED', {
          plugin: declaredBy,
          hook: name,
          message: `hook already declared as ${existing.decl.kind} by ${existing.declaredBy}, cannot redeclare as ${decl.kind}`,
        });
      }
      return;
    }
    this.#hooks.set(name, { name, declaredBy, decl, handlers: [] });
  }

  isDeclared(name: string): boolean {
    return this.#hooks.has(name);
  }

  on<N extends HookName>(name: N, plugin: string, handler: HookHandler<N>, options: HookHandlerOptions = {}): () => void {
    const state = this.#state(name, plugin);
    const entry: Registered = { plugin, fn: handler as Registered['fn'], order: options.order ?? 0 };
    // Stable insert: after every handler whose order is <= ours.
    let at = state.handlers.length;
    while (at > 0 && state.handlers[at - 1].order > entry.order) at--;
    state.handlers = [...state.handlers.slice(0, at), entry, ...state.handlers.slice(at)];
    return () => {
      state.handlers = state.handlers.filter((h) => h !== entry);
    };
  }

  intercept(interceptor: HookInterceptor): () => void {
    this.#interceptors.push(interceptor);
    return () => {
      const i = this.#interceptors.indexOf(interceptor);
      if (i >= 0) this.#interceptors.splice(i, 1);
    };
  }

  hasHandlers(name: HookName): boolean {
    return (this.#hooks.get(name)?.handlers.length ?? 0) > 0;
  }

  list(): HookInfo[] {
    return [...this.#hooks.values()].map((s) => ({
      name: s.name,
      kind: s.decl.kind,
      observer: s.decl.observer === true,
      declaredBy: s.declaredBy,
      handlers: s.handlers.map((h) => ({ plugin: h.plugin, order: h.order })),
    }));
  }

  call<N extends HookName>(name: N, ...args: HookArgs<N>): Promise<HookCallResult<N>> {
    const state = this.#hooks.get(name);
    if (state === undefined) return Promise.reject(new SluiceError('HOOK_UNDECLARED', { hook: name, message: `hook ${name} is not declared` }));
    const handlers = state.handlers;
    if (handlers.length === 0) return (state.decl.kind === 'waterfall' ? Promise.resolve(args[0]) : RESOLVED) as Promise<HookCallResult<N>>;
    const a = args as unknown[];
    let out: Promise<unknown>;
    switch (state.decl.kind) {
      case 'series':
        out = this.#series(state, handlers, a);
        break;
      case 'parallel':
        out = this.#parallel(state, handlers, a);
        break;
      case 'first':
        out = this.#first(state, handlers, a, 0);
        break;
      case 'waterfall':
        out = this.#waterfall(state, handlers, a, 0, a[0]);
        break;
    }
    return out as Promise<HookCallResult<N>>;
  }

  #state(name: string, plugin: string): HookState {
    const state = this.#hooks.get(name);
    if (!state) throw new SluiceError('HOOK_UNDECLARED', { plugin, hook: name, message: `plugin ${plugin} registers a handler for undeclared hook ${name}` });
    return state;
  }

  /** Runs one handler. Returns its value or a promise; a thrown error comes back decorated. */
  #invoke(state: HookState, h: Registered, args: unknown[]): unknown {
    if (this.#interceptors.length > 0) return this.#invokeTraced(state, h, args);
    let r: unknown;
    try {
      r = h.fn(...args);
    } catch (error) {
      return this.#fail(state, h, error);
    }
    if (!isPromise(r)) return r;
    const guarded = state.decl.timeoutMs === undefined ? r : withTimeout(r, state.decl.timeoutMs, state, h);
    return guarded.then(undefined, (error: unknown) => this.#fail(state, h, error));
  }

  #invokeTraced(state: HookState, h: Registered, args: unknown[]): unknown {
    const started = performance.now();
    for (const i of this.#interceptors) i.beforeEach?.({ hook: state.name, plugin: h.plugin, args });
    const after = (error: unknown, result: unknown) => {
      for (const i of this.#interceptors) i.afterEach?.({ hook: state.name, plugin: h.plugin, durationMs: performance.now() - started, error, result });
    };
    let r: unknown;
    try {
      r = h.fn(...args);
    } catch (error) {
      after(error, undefined);
      return this.#fail(state, h, error);
    }
    if (!isPromise(r)) {
      after(undefined, r);
      return r;
    }
    const guarded = state.decl.timeoutMs === undefined ? r : withTimeout(r, state.decl.timeoutMs, state, h);
    return guarded.then(
      (v) => (after(undefined, v), v),
      (error: unknown) => (after(error, undefined), this.#fail(state, h, error)),
    );
  }

  /** Observer failures are reported and swallowed; anything else is rethrown with plugin and hook attached. */
  #fail(state: HookState, h: Registered, error: unknown): undefined | Promise<never> {
    const decorated = decorate(error, state.name, h.plugin);
    if (state.decl.observer) {
      this.#onObserverError(decorated);
      return undefined;
    }
    return Promise.reject(decorated);
  }

  #series(state: HookState, handlers: Registered[], args: unknown[]): Promise<unknown> {
    for (let i = 0; i < handlers.length; i++) {
      const r = this.#invoke(state, handlers[i], args);
      if (isPromise(r)) return this.#seriesAsync(state, handlers, args, i, r);
    }
    return RESOLVED;
  }

  async #seriesAsync(state: HookState, handlers: Registered[], args: unknown[], from: number, pending: Promise<unknown>): Promise<void> {
    await pending;
    for (let i = from + 1; i < handlers.length; i++) {
      const r = this.#invoke(state, handlers[i], args);
      if (isPromise(r)) await r;
    }
  }

  async #parallel(state: HookState, handlers: Registered[], args: unknown[]): Promise<void> {
    const settled = await Promise.allSettled(handlers.map((h) => this.#invoke(state, h, args)));
    for (const s of settled) if (s.status === 'rejected') throw s.reason;
  }

  #first(state: HookState, handlers: Registered[], args: unknown[], from: number): Promise<unknown> {
    for (let i = from; i < handlers.length; i++) {
      const r = this.#invoke(state, handlers[i], args);
      if (isPromise(r)) return r.then((v) => (isEmpty(v) ? this.#first(state, handlers, args, i + 1) : v));
      if (!isEmpty(r)) return Promise.resolve(r);
    }
    return Promise.resolve(undefined);
  }

  #waterfall(state: HookState, handlers: Registered[], args: unknown[], from: number, value: unknown): Promise<unknown> {
    let current = value;
    for (let i = from; i < handlers.length; i++) {
      const r = this.#invoke(state, handlers[i], [current, ...args.slice(1)]);
      if (isPromise(r)) {
        const prev = current;
        return r.then((v) => this.#waterfall(state, handlers, args, i + 1, v === undefined ? prev : v));
      }
      if (r !== undefined) current = r;
    }
    return Promise.resolve(current);
  }
}

function decorate(error: unknown, hook: string, plugin: string): SluiceError {
  if (isSluiceError(error)) {
    if (error.plugin !== undefined && error.hook !== undefined) return error;
    return new SluiceError(error.code, {
      ...error.given,
      file: error.file,
      field: error.field,
      data: error.data,
      plugin,
      hook,
      cause: error,
    });
  }
  const message = error instanceof Error ? error.message : String(error);
  return new SluiceError('HOOK_FAILED', { plugin, hook, message: `plugin ${plugin} failed in hook ${hook}: ${message}`, cause: error });
}

function withTimeout(p: Promise<unknown>, ms: number, state: HookState, h: Registered): Promise<unknown> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new SluiceError('HOOK_TIMEOUT', {
            plugin: h.plugin,
            hook: state.name,
            message: `plugin ${h.plugin} did not answer hook ${state.name} within ${ms} ms`,
          }),
        ),
      ms,
    );
  });
  return Promise.race([p, timeout]).finally(() => clearTimeout(timer));
}
