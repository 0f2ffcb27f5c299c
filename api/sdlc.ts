/** `sluice/sdlc`: the SDLC workflow's hooks, events and the history records they carry. */
export type { BeforeAdvanceEvent, PhaseAdvancedEvent, GateResultEvent, TransitionKind } from '../plugins/sdlc/sdlc-hooks.ts';
export type { HistoryEntry, Approval, GateSummary } from '../plugins/sdlc/state/history-schema.ts';
export { profileGateInput, type ProfileGateInput } from '../plugins/sdlc/gating/profile-gate-input.ts';
export { sdlcHooks } from '../plugins/sdlc/sdlc-hooks.ts';
/** What signed approvals are made and checked with (`ssh-keygen -Y`), for a program that signs outside sluice. */
export {
  SIGNATURE_NAMESPACE,
  sshSign,
  sshVerify,
  sshFindPrincipals,
  type SignRequest,
  type VerifyRequest,
  type VerifyOutcome,
} from '../plugins/sdlc/signing/ssh-signature.ts';
export { parseAllowedSigners, type AllowedSigner } from '../plugins/sdlc/signing/allowed-signers.ts';
