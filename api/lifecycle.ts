/** `sluice/lifecycle`: the requirement lifecycle's hook, event and state vocabulary. */
export type { LifecycleTransitionEvent } from '../plugins/lifecycle/lifecycle-hooks.ts';
export type { Stage, Status, StageResult, RepairScope } from '../plugins/lifecycle/transition-table.ts';
export { lifecycleHooks } from '../plugins/lifecycle/lifecycle-hooks.ts';
