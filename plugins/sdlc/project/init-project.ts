import { basename } from 'pathe';
import { readDataText, resolveInside, SluiceError, type Kernel } from '../../../core/index.ts';
import { sluiceAsset } from '../../host-node/index.ts';
import { loadPack } from '../profile/load-pack.ts';
import { resolvePack, type PackLocation } from '../profile/resolve-pack.ts';
import { sdlcStateFile } from '../state/state-file.ts';
import type { ProjectType, SdlcState } from '../state/state-schema.ts';
import { allowedSignersPath, allowedSignersToFreeze } from '../signing/allowed-signers-file.ts';
import { initialState } from './initial-state.ts';
import { sdlcPaths } from './project-paths.ts';

export interface InitOptions {
  /** Built-in id, folder, configured pack id or installed package; default `starter`. */
  profile?: string;
  name?: string;
  type?: ProjectType;
  force?: boolean;
  /** allowed_signers file to freeze into .sdlc/ (default: the pack's own, if it has one). */
  allowedSigners?: string;
}

export interface InitReport {
  root: string;
  profileId: string;
  pack: PackLocation;
  /** Files copied into .sdlc/ unchanged (relative to the root). */
  frozen: string[];
  artifactDirs: string[];
  state: SdlcState;
}

const stateTemplatePath = () => sluiceAsset('plugins', 'sdlc', 'assets', 'state-init.yaml');

/**
 * `sluice init`: validates the pack, freezes its profile, registry and compliance files into .sdlc/
 * (so a later pack upgrade never changes a running project), creates one artifact folder per registry
 * slug and writes state.yaml last, so a failure half-way leaves no project behind.
 */
export async function initProject(kernel: Kernel, o: InitOptions = {}): Promise<InitReport> {
  const { host } = kernel;
  const paths = sdlcPaths(kernel.projectRoot);
  if (!o.force && (await kernel.store.exists(paths.state))) {
    throw new SluiceError('PROJECT_EXISTS', { file: kernel.display(paths.state), message: 'this folder already has an SDLC project; pass --force to re-initialise (artifacts are kept, state starts over)' });
  }
  const location = resolvePack(o.profile ?? 'starter', kernel.projectRoot, kernel.config.profiles);
  const pack = await loadPack(kernel, location);
  const signers = await allowedSignersToFreeze(kernel, location.dir, o.allowedSigners);
  const templateText = await readDataText(host, stateTemplatePath(), { display: 'state-init.yaml' });
  const profileId = pack.profile.value.company.profile_id;
  const state = initialState(templateText, { profileId, projectName: o.name?.trim() || basename(kernel.projectRoot), createdAt: host.now().toISOString(), projectType: o.type, model: pack.model }, 'state-init.yaml');

  const artifactDirs = pack.model.phases.map((p) => resolveInside(kernel.projectRoot, paths.artifactDirRel(p.slug), 'artifact folder'));
  for (const dir of artifactDirs) await host.mkdir(dir);
  // A re-init must not keep a framework file the new profile no longer lists.
  await host.remove(paths.complianceDir, { recursive: true });
  const frozen: { path: string; text: string }[] = [
    { path: paths.profile, text: pack.profile.text },
    { path: paths.registry, text: pack.registry.text },
    ...pack.compliance.map((c) => ({ path: paths.complianceFile(c.framework), text: c.file.text })),
    ...(signers === undefined ? [] : [{ path: allowedSignersPath(paths.dir), text: signers }]),
  ];
  if (pack.compliance.length > 0) await host.mkdir(paths.complianceDir);
  for (const f of frozen) await host.writeAtomic(f.path, f.text);
  await kernel.store.create(sdlcStateFile(paths.state), state, { overwrite: o.force === true });
  return { root: kernel.projectRoot, profileId, pack: location, frozen: frozen.map((f) => kernel.display(f.path)), artifactDirs: artifactDirs.map((d) => kernel.display(d)), state };
}
