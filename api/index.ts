/**
 * `sluice`: the kernel and plugin API, and the hook types of every bundled workflow, so that
 * `ctx.hook('phase:beforeAdvance', ...)` type-checks in a plugin that imports only this entry.
 */
export * from '../core/index.ts';
export type { BeforeAdvanceEvent, PhaseAdvancedEvent, GateResultEvent, TransitionKind } from '../plugins/sdlc/sdlc-hooks.ts';
export type { LifecycleTransitionEvent } from '../plugins/lifecycle/lifecycle-hooks.ts';
export type { TuneIterationEvent, TuneScoredEvent, TuneTerminatedEvent } from '../plugins/skill-tune/tune-hooks.ts';
