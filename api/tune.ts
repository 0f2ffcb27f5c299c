/** `sluice/tune`: the skill-tuning loop's hooks and events. */
export type { TuneIterationEvent, TuneScoredEvent, TuneTerminatedEvent } from '../plugins/skill-tune/tune-hooks.ts';
export { tuneHooks } from '../plugins/skill-tune/tune-hooks.ts';
