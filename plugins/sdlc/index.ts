/**
 * sluice:sdlc's public face: the plugin, its hooks and error codes, and the project, state, registry,
 * profile and signing readers that the read side (plugins/sdlc-views) builds on.
 */
export { sdlcPlugin } from './sdlc-plugin.ts';
export { sdlcHooks } from './sdlc-hooks.ts';
export { sdlcErrors } from './sdlc-errors.ts';
export { ComplianceFileSchema } from './profile/compliance-schema.ts';
export type { ComplianceFile } from './profile/compliance-schema.ts';
export { complianceProblems, profileProblems } from './profile/profile-rules.ts';
export type { SemanticProblem } from './profile/profile-rules.ts';
export { COMPLIANCE_FRAMEWORKS, ProfileSchema } from './profile/profile-schema.ts';
export { findComplianceFile } from './profile/pack-compliance.ts';
export { expectedChecksums, frozenDrift } from './project/frozen-files.ts';
export { checkState, openProject, readableState } from './project/open-project.ts';
export type { SdlcProject } from './project/open-project.ts';
export { parseCacheDir, parseWithCache, readCacheEntry, writeCacheEntry, type ForgedEntry } from './project/disk-cache.ts';
export { forgedProjectCacheEntries } from './project/cache-audit.ts';
export { sdlcPaths } from './project/project-paths.ts';
export { readSdlcFile } from './project/read-sdlc-file.ts';
export { bundledRegistryPath } from './registry/bundled-registry-path.ts';
export { createPhaseModel } from './registry/phase-model.ts';
export type { PhaseModel } from './registry/phase-model.ts';
export { PhaseRegistrySchema } from './registry/registry-schema.ts';
export type { PhaseDefinition } from './registry/registry-schema.ts';
export { proseExitConditions, requiredArtifacts } from './registry/required-artifacts.ts';
export type { RequiredArtifact } from './registry/required-artifacts.ts';
export { personLabel } from './signing/person-label.ts';
export { renderSignatures, signerLabel } from './signing/render-signatures.ts';
export { verifyHistory } from './signing/verify-history.ts';
export type { SignatureAudit, SignatureStatus } from './signing/verify-history.ts';
export type { StoredGateResult } from './state/gate-result-schema.ts';
export type { Approval, HistoryEntry } from './state/history-schema.ts';
export { phaseKey } from './state/phase-id.ts';
export { safeYamlCodec } from './state/safe-yaml-codec.ts';
export { sdlcStateFile } from './state/state-file.ts';
export { SdlcStateReadSchema } from './state/state-read-schema.ts';
export type { PhaseStatus, SdlcState } from './state/state-schema.ts';
export { acceptancesOf, waiversOfResult } from './waivers/waiver-records.ts';
export { waiverPolicy } from './waivers/waiver-acceptance.ts';
export type { WaiverPolicy } from './waivers/waiver-acceptance.ts';
export { readStateFolding, readStateRecent, RecentHistory, foldHistory, type HistoryFold } from './state/folded-state-read.ts';
export {
  historyJournalSpec,
  judgeHistory,
  cachedRecords,
  describeRecords,
  journaledHistory,
  type HistoryRecords,
  type HistoryJournalBody,
} from './state/history-journal.ts';
export { journaledStateUpdate } from './state/journaled-state-update.ts';
