import { isSluiceError, SluiceError, type Kernel, type LoadedJournal } from '../../../core/index.ts';
import { checkCompliance, checkProfile, profileFrameworks } from '../profile/check-profile.ts';
import { ComplianceFileSchema, type ComplianceFile } from '../profile/compliance-schema.ts';
import { findComplianceFile, packDirForProfileId } from '../profile/pack-compliance.ts';
import { loadPackPlugins } from '../profile/pack-plugins.ts';
import { PROFILE_DISPLAY } from '../profile/profile-trust-subjects.ts';
import { bundledRegistryPath } from '../registry/bundled-registry-path.ts';
import { ProfileSchema, type Profile } from '../profile/profile-schema.ts';
import { createPhaseModel, type PhaseModel } from '../registry/phase-model.ts';
import { PhaseRegistrySchema } from '../registry/registry-schema.ts';
import { sdlcStateFile, type SdlcStateFile } from '../state/state-file.ts';
import { historyJournalSpec, judgeHistory, type HistoryRecords } from '../state/history-journal.ts';
import { SdlcStateReadSchema } from '../state/state-read-schema.ts';
import { activePhaseProblem } from '../state/state-invariant.ts';
import type { SdlcState } from '../state/state-schema.ts';
import { sdlcPaths, type SdlcPaths } from './project-paths.ts';
import { assertFrozenIntact } from './frozen-files.ts';
import { readSdlcFile, readStateYaml } from './read-sdlc-file.ts';

/** Everything the commands need about one project, read and validated once. */
export interface SdlcProject {
  root: string;
  paths: SdlcPaths;
  stateFile: SdlcStateFile;
  state: SdlcState;
  /**
   * The bytes `state` was read from, for a command that writes (not `readOnly`): a write under the
   * lock reuses `state` when state.yaml still holds exactly them, instead of reading it again.
   */
  stateText?: string;
  /** The history's journal: verified or unanchored here, and history written outside sluice. */
  records: HistoryRecords;
  profile: Profile;
  profileDisplay: string;
  model: PhaseModel;
  registryDisplay: string;
  /** The registry read: the frozen copy, or the bundled one. */
  registryPath: string;
  compliance: { framework: string; path: string; display: string; value: ComplianceFile }[];
  /** Frameworks the profile lists whose frozen gate file is gone: G4 reports each as a MUST failure. */
  missingCompliance: { framework: string; display: string }[];
}

/**
 * Opens the project at the kernel's root: state (validated), the frozen profile and compliance files,
 * and the frozen registry (or the bundled one for projects set up by another tool). `verifyFrozen`
 * (gate and the transitions) first checks the frozen files against their recorded checksums.
 * `readOnly` (the views) accepts a state missing history, version or created_at, with defaults, and
 * does not need the profile's gate types registered (it runs none).
 */
export async function openProject(kernel: Kernel, o: { verifyFrozen?: boolean; readOnly?: boolean; reportRecords?: boolean } = {}): Promise<SdlcProject> {
  const { host } = kernel;
  const paths = sdlcPaths(kernel.projectRoot);
  const stateFile = sdlcStateFile(paths.state);
  await assertProjectExists(kernel, paths);
  // Read as the store reads it (codec, schema, STATE_INVALID), with the parse cached; updates still re-read under the lock.
  // The journal before state.yaml: state.yaml is written first, so a concurrent write reads as history
  // not journaled yet, never as a journal ahead of its cache.
  const journal = await kernel.store.loadJournal(historyJournalSpec(kernel, paths.dir, paths.state)).catch((error: unknown) => error as Error);
  const stateRead = await readStateYaml(
    host,
    paths.state,
    o.readOnly ? SdlcStateReadSchema : stateFile.schema,
    kernel.display(paths.state),
    kernel.config.stateMaxBytes,
  );
  let state: SdlcState = stateRead.value;
  // The history against its journal and this machine's anchor: a forged or rolled-back history is refused by every command.
  const records = judgeRecords(kernel, paths, journal, stateRead.text, state, o.reportRecords === true);
  // Before the frozen files are parsed: an edited profile is reported as edited, not as invalid.
  if (o.verifyFrozen) await assertFrozenIntact(kernel, paths, state);
  const profile = await readSdlcFile(host, paths.profile, ProfileSchema, 'PROFILE_INVALID', kernel.display(paths.profile));
  const registryPath = (await host.stat(paths.registry)) ? paths.registry : bundledRegistryPath(host);
  const registry = await readSdlcFile(host, registryPath, PhaseRegistrySchema, 'REGISTRY_INVALID', kernel.display(registryPath));
  const model = createPhaseModel(registry.value, kernel.display(registryPath));
  if (o.readOnly) state = readableState(state, model, kernel.display(paths.state));
  else checkState(state, model, kernel.display(paths.state));
  // A command that runs gates loads the pack's own gate plugins first (refused unless trusted).
  if (!o.readOnly) await loadPackPlugins(kernel, paths.dir, PROFILE_DISPLAY, profile.value.sluice?.plugins ?? []);
  checkProfile(profile.value, model, kernel, kernel.display(paths.profile), { runsGates: !o.readOnly });

  const compliance: SdlcProject['compliance'] = [];
  const missingCompliance: SdlcProject['missingCompliance'] = [];
  // No .sdlc/compliance/ at all: a project the reference set up, which reads the pack its profile_id names.
  const frozenCompliance = (await host.stat(paths.complianceDir))?.kind === 'dir';
  const packDir = frozenCompliance ? undefined : await packDirForProfileId(host, profile.value.company.profile_id, kernel.projectRoot, kernel.config.profiles);
  for (const framework of profileFrameworks(profile.value)) {
    const path = (frozenCompliance ? undefined : await findComplianceFile(host, [packDir], framework)) ?? paths.complianceFile(framework);
    const display = kernel.display(path);
    if (!(await host.stat(path))) {
      missingCompliance.push({ framework, display });
      continue;
    }
    const file = await readSdlcFile(host, path, ComplianceFileSchema, 'COMPLIANCE_INVALID', display);
    checkCompliance(file.value, model, display);
    compliance.push({ framework, path, display, value: file.value });
  }
  return {
    root: kernel.projectRoot,
    paths,
    stateFile,
    state,
    ...(o.readOnly ? {} : { stateText: stateRead.text }),
    records,
    profile: profile.value,
    profileDisplay: kernel.display(paths.profile),
    model,
    registryDisplay: kernel.display(registryPath),
    registryPath,
    compliance,
    missingCompliance,
  };
}

/**
 * The history against its journal and anchor. `report` (audit): a tampered or rolled-back history is
 * returned as the records' `problem`, for the audit to show and fail on, instead of refusing the project.
 */
function judgeRecords(
  kernel: Kernel,
  paths: SdlcPaths,
  journal: LoadedJournal | null | Error,
  text: string,
  state: SdlcState,
  report: boolean,
): HistoryRecords {
  try {
    if (journal instanceof Error) throw journal;
    return judgeHistory(kernel.host, journal, text, state, kernel.display(paths.state));
  } catch (error) {
    if (!report || !isSluiceError(error) || (error.code !== 'STATE_TAMPERED' && error.code !== 'JOURNAL_ROLLED_BACK')) throw error;
    return { provenance: 'journal', entries: 0, anchoring: { state: 'unanchored' }, foreign: 0, journal: null, problem: error };
  }
}

/** PROJECT_MISSING (exit 2) when the folder has no `.sdlc/state.yaml`. */
export async function assertProjectExists(kernel: Kernel, paths: SdlcPaths): Promise<void> {
  if (!(await kernel.store.exists(paths.state))) {
    throw new SluiceError('PROJECT_MISSING', {
      file: kernel.display(paths.state),
      message: `no SDLC project in ${kernel.projectRoot} (.sdlc/state.yaml does not exist)`,
    });
  }
}

/**
 * The views' check: the current phase must be a registry phase, nothing more. The reference's
 * dashboard shows states another tool left with no active phase, an empty `phases` map or no
 * `phase_name` (filled in from the registry here), so the read-only views show them too; every
 * writing command still refuses them through checkState.
 */
export function readableState(state: SdlcState, model: PhaseModel, display: string): SdlcState {
  const current = model.require(state.current_phase, { file: display, field: 'current_phase' });
  return state.phase_name ? state : { ...state, phase_name: current.name };
}

/** The state names registry phases and has exactly one active phase: the current one. */
export function checkState(state: SdlcState, model: PhaseModel, display: string): void {
  model.require(state.current_phase, { file: display, field: 'current_phase' });
  const problem = activePhaseProblem(state);
  if (problem) throw new SluiceError('STATE_INVALID', { file: display, field: 'phases', message: problem });
}
