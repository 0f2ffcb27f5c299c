/** `sluice/sdlc`: the SDLC workflow's hooks, events and the history records they carry. */
export type { BeforeAdvanceEvent, PhaseAdvancedEvent, GateResultEvent, TransitionKind } from '../plugins/sdlc/sdlc-hooks.ts';
export type { HistoryEntry, Approval, GateSummary } from '../plugins/sdlc/state/history-schema.ts';
export { profileGateInput, type ProfileGateInput } from '../plugins/sdlc/gating/profile-gate-input.ts';
export { sdlcHooks } from '../plugins/sdlc/sdlc-hooks.ts';
