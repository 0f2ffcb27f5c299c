import { SluiceError, type Kernel } from '../../../../core/index.ts';
import { bundledRegistryPath } from '../../profile/load-pack.ts';
import { checkState } from '../../project/open-project.ts';
import { sdlcPaths } from '../../project/project-paths.ts';
import { readSdlcFile } from '../../project/read-sdlc-file.ts';
import { createPhaseModel, type PhaseModel } from '../../registry/phase-model.ts';
import { PhaseRegistrySchema } from '../../registry/registry-schema.ts';
import { sdlcStateFile } from '../../state/state-file.ts';
import type { SdlcState } from '../../state/state-schema.ts';

export interface StatusProject {
  root: string;
  state: SdlcState;
  model: PhaseModel;
}

/**
 * What `sluice status` needs and no more: the state and the frozen registry, read and checked by the
 * workflow's own loaders (same schema, codec and consistency checks as `openProject`), without the
 * profile and compliance files the dashboard never shows. State and registry are read in parallel.
 */
export async function readStatusProject(kernel: Kernel): Promise<StatusProject> {
  const paths = sdlcPaths(kernel.projectRoot);
  const [stateInfo, registryInfo] = await Promise.all([kernel.host.stat(paths.state), kernel.host.stat(paths.registry)]);
  if (!stateInfo) throw new SluiceError('PROJECT_MISSING', { file: kernel.display(paths.state), message: `no SDLC project in ${kernel.projectRoot} (.sdlc/state.yaml does not exist)` });
  const registryPath = registryInfo ? paths.registry : bundledRegistryPath();
  const [state, registry] = await Promise.all([
    kernel.store.read(sdlcStateFile(paths.state)),
    readSdlcFile(kernel.host, registryPath, PhaseRegistrySchema, 'REGISTRY_INVALID', kernel.display(registryPath)),
  ]);
  const model = createPhaseModel(registry.value, kernel.display(registryPath));
  checkState(state, model, kernel.display(paths.state));
  return { root: kernel.projectRoot, state, model };
}
