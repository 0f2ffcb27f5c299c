/**
 * `sluice`: the plugin API — what a plugin author writes a plugin with (define its commands, gates,
 * delegates, hooks and error codes, raise errors) and the types those take, including the hook events
 * of every bundled workflow, so `ctx.hook('phase:beforeAdvance', ...)` type-checks in a plugin that
 * imports only this entry. The host and CLI side (createKernel, hosts, workspace trust,
 * hashing, queues, stores) is `sluice/kernel`. README.md "The plugin API" lists these names.
 */
export { definePlugin, defineGate, defineDelegate, defineWorkflow, defineCommand } from '../core/index.ts';
export { gatePlugin, gateData, type GatePluginOptions } from '../core/index.ts';
export { defineHook } from '../core/index.ts';
export { defineErrorCodes, SluiceError, isSluiceError, toSluiceError, ExitCode } from '../core/index.ts';
export type { SluiceErrorDetails, ErrorCode, ErrorCodes, CatalogEntry } from '../core/index.ts';
export { commandOutput } from '../core/index.ts';
export { HostIoError, HostNotFoundError, HostNotRegularError, HostTooLargeError } from '../core/index.ts';
export type { Host, FileInfo, DirEntry, SpawnOptions, SpawnResult } from '../core/host/host.ts';
export type * from '../core/plugin/types.ts';
export type * from '../core/delegate/contract.ts';
export type {
  Hooks,
  HookName,
  HookKind,
  HookSpec,
  HookSpecs,
  HookHandler,
  HookHandlerOptions,
  HookDeclaration,
  TypedHookDeclaration,
} from '../core/hooks/hook-types.ts';
export type { Jobs, JobName, JobHandler, JobContext, JsonValue } from '../core/queue/job-queue.ts';
export type { Kernel, Registry } from '../core/index.ts';
export type { SluiceConfig } from '../core/index.ts';
export type { DelegateStartEvent, DelegateOutputEvent, DelegateFinishEvent } from '../core/index.ts';
export type { BeforeAdvanceEvent, PhaseAdvancedEvent, GateResultEvent, TransitionKind } from '../plugins/sdlc/sdlc-hooks.ts';
export type { LifecycleTransitionEvent } from '../plugins/lifecycle/lifecycle-hooks.ts';
export type { TuneIterationEvent, TuneScoredEvent, TuneTerminatedEvent } from '../plugins/skill-tune/tune-hooks.ts';
