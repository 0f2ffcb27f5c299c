import { journaledStateUpdate } from '../state/journaled-state-update.ts';
import { basename, dirname } from 'pathe';
import { readDataText, resolveInside, SluiceError, type Kernel } from '../../../core/index.ts';
import { loadPack } from '../profile/load-pack.ts';
import { packDirForProfileId } from '../profile/pack-compliance.ts';
import { frozenPluginsDir, packPluginFile } from '../profile/pack-plugins.ts';
import { resolvePack, type PackLocation } from '../profile/resolve-pack.ts';
import { sdlcStateFile } from '../state/state-file.ts';
import type { ProjectType, SdlcState } from '../state/state-schema.ts';
import { allowedSignersPath, allowedSignersToFreeze } from '../signing/allowed-signers-file.ts';
import { backupProject } from './backup-project.ts';
import { checksumOf, frozenKey } from './frozen-files.ts';
import { initialState } from './initial-state.ts';
import { sdlcPaths, type SdlcPaths } from './project-paths.ts';
import { writeProjectLayout } from './project-layout.ts';

export interface InitOptions {
  /** Built-in id, folder, configured pack id or installed package; default `starter`, or the kept profile with --force. */
  profile?: string;
  name?: string;
  type?: ProjectType;
  force?: boolean;
  /** With --force on a project that has history: the person agrees to start the history over. */
  confirmed?: boolean;
  /** allowed_signers file to freeze into .sdlc/ (default: the pack's own, if it has one; with --force, the project's). */
  allowedSigners?: string;
}

export interface InitReport {
  root: string;
  profileId: string;
  pack: PackLocation;
  /** Files copied into .sdlc/ unchanged (relative to the root). */
  frozen: string[];
  /** The phase folders and every folder the registry requires inside the project (`.sdlc/artifacts/02-design/adrs/`). */
  artifactDirs: string[];
  /** Starter templates and layout files written (existing files are never replaced). */
  written: string[];
  /** Where the replaced state was kept (init --force). */
  backup?: string;
  state: SdlcState;
}

const stateTemplatePath = (kernel: Kernel) => kernel.host.asset('plugins', 'sdlc', 'assets', 'state-init.yaml');

/** The state being replaced by --force, if it can still be read (a corrupt one is backed up all the same). */
async function previousState(kernel: Kernel, paths: SdlcPaths): Promise<SdlcState | undefined> {
  try {
    return await kernel.store.read(sdlcStateFile(paths.state));
  } catch {
    return undefined;
  }
}

/**
 * Which pack to freeze: --profile when given; on --force without it, the project's own frozen
 * profile (so a re-init never switches a SOC 2 project to starter), its missing compliance files
 * looked up in the pack its profile_id names; else starter.
 */
async function choosePack(kernel: Kernel, paths: SdlcPaths, o: InitOptions, previous: SdlcState | undefined): Promise<PackLocation> {
  if (o.profile !== undefined || !previous) return resolvePack(kernel.host, o.profile ?? 'starter', kernel.projectRoot, kernel.config.profiles);
  if (await kernel.host.stat(paths.profile)) {
    return {
      dir: paths.dir,
      source: 'project',
      spec: previous.profile_id,
      fallbackDir: await packDirForProfileId(kernel.host, previous.profile_id, kernel.projectRoot, kernel.config.profiles),
    };
  }
  return resolvePack(kernel.host, previous.profile_id, kernel.projectRoot, kernel.config.profiles);
}

/**
 * `sluice init`: validates the pack, freezes its profile, registry and compliance files into .sdlc/
 * (so a later pack upgrade never changes a running project) with their checksums in state, creates
 * the seed's layout (one artifact folder per registry slug, constitution, context folders) and a
 * starter template per required artifact, and writes state.yaml last, so a failure half-way leaves
 * no project behind. `--force` refuses to drop history without --confirmed and keeps a backup.
 */
export async function initProject(kernel: Kernel, o: InitOptions = {}): Promise<InitReport> {
  const { host } = kernel;
  const paths = sdlcPaths(kernel.projectRoot);
  const exists = await kernel.store.exists(paths.state);
  if (exists && !o.force) {
    throw new SluiceError('PROJECT_EXISTS', {
      file: kernel.display(paths.state),
      message:
        'this folder already has an SDLC project; pass --force to re-initialise (artifacts and the profile are kept, state starts over, the old state is backed up)',
    });
  }
  const previous = exists ? await previousState(kernel, paths) : undefined;
  const transitions = previous?.history.length ?? 0;
  if (transitions > 0 && !o.confirmed) {
    throw new SluiceError('APPROVAL_REQUIRED', {
      file: kernel.display(paths.state),
      message: `re-initialising starts the history over: ${transitions} recorded transition${transitions > 1 ? 's' : ''} and approvals would leave state.yaml (a backup is kept under .sdlc/backups/); rerun with --force --confirmed to do it`,
      hint: 'sluice init --force --confirmed',
    });
  }
  const location = await choosePack(kernel, paths, o, previous);
  const pack = await loadPack(kernel, location);
  const signers = await allowedSignersToFreeze(kernel, location.dir, o.allowedSigners);
  const templateText = await readDataText(host, stateTemplatePath(kernel), { display: 'state-init.yaml' });
  const profileId = pack.profile.value.company.profile_id;
  const projectName = o.name?.trim() || previous?.project_name || basename(kernel.projectRoot);
  const projectType = o.type ?? previous?.project_type ?? undefined;
  const frozen: { path: string; text: string }[] = [
    { path: paths.profile, text: pack.profile.text },
    { path: paths.registry, text: pack.registry.text },
    ...pack.compliance.map((c) => ({ path: paths.complianceFile(c.framework), text: c.file.text })),
    ...pack.plugins.map((p) => ({ path: packPluginFile(frozenPluginsDir(paths.dir), p.spec), text: p.text })),
    ...(signers === undefined ? [] : [{ path: allowedSignersPath(paths.dir), text: signers }]),
  ];
  const frozenFiles = Object.fromEntries(frozen.map((f) => [frozenKey(paths, f.path), checksumOf(f.text)]));
  const state: SdlcState = {
    ...initialState(templateText, { profileId, projectName, createdAt: host.now().toISOString(), projectType, model: pack.model }, 'state-init.yaml'),
    frozen_files: frozenFiles,
  };

  const backup = exists ? await backupProject(kernel, paths) : undefined;
  const artifactDirs = pack.model.phases.map((p) => resolveInside(kernel.projectRoot, paths.artifactDirRel(p.slug), 'artifact folder'));
  for (const dir of artifactDirs) await host.mkdir(dir);
  // A re-init must not keep a framework file the new profile no longer lists.
  await host.remove(paths.complianceDir, { recursive: true });
  if (pack.compliance.length > 0) await host.mkdir(paths.complianceDir);
  // Nor a pack plugin it no longer lists (the new pack's files were read above, a re-init's own copies included).
  await host.remove(frozenPluginsDir(paths.dir), { recursive: true });
  for (const p of pack.plugins) await host.mkdir(dirname(packPluginFile(frozenPluginsDir(paths.dir), p.spec)));
  for (const f of frozen) await host.writeAtomic(f.path, f.text);
  const { written, folders } = await writeProjectLayout(kernel, paths, { model: pack.model, projectName, profileId, projectType });
  // Through the journal: an `init` entry (a re-init is a `reinit` that starts the history again, never a deleted journal).
  await journaledStateUpdate(kernel, paths, (s) => s, { purpose: 'sluice init', initial: state, reset: true });
  return {
    root: kernel.projectRoot,
    profileId,
    pack: location,
    frozen: frozen.map((f) => kernel.display(f.path)),
    artifactDirs: [...artifactDirs, ...folders].map((d) => kernel.display(d)),
    written: written.map((w) => kernel.display(w)),
    ...(backup ? { backup: kernel.display(backup) } : {}),
    state,
  };
}
