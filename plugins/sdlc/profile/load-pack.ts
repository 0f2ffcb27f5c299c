import { join } from 'pathe';
import { SluiceError, type Kernel } from '../../../core/index.ts';
import { readSdlcFile, type SdlcFile } from '../project/read-sdlc-file.ts';
import { bundledRegistryPath } from '../registry/bundled-registry-path.ts';
import { createPhaseModel, type PhaseModel } from '../registry/phase-model.ts';
import { PhaseRegistrySchema, type PhaseRegistry } from '../registry/registry-schema.ts';
import { checkCompliance, checkProfile, profileFrameworks } from './check-profile.ts';
import { ComplianceFileSchema, type ComplianceFile } from './compliance-schema.ts';
import { ProfileSchema, type Profile } from './profile-schema.ts';
import { findComplianceFile } from './pack-compliance.ts';
import { frozenPluginsDir, packPluginFile } from './pack-plugins.ts';
import type { PackLocation } from './resolve-pack.ts';

/** A pack plugin is one module of source; a bigger file is refused rather than frozen. */
const MAX_PLUGIN_BYTES = 1024 * 1024;

export interface LoadedPack {
  location: PackLocation;
  profile: SdlcFile<Profile>;
  registry: SdlcFile<PhaseRegistry>;
  model: PhaseModel;
  compliance: { framework: string; file: SdlcFile<ComplianceFile> }[];
  /** The pack's gate plugins (`sluice.plugins`): each path as the profile lists it, and the file's text. */
  plugins: { spec: string; text: string }[];
}

/**
 * Reads and validates everything `sluice init` freezes from a pack: the profile, its phase registry
 * (the pack's own `phase-registry.yaml` replaces the bundled one), one compliance file per framework
 * and the pack's gate plugin files (read as text, never run: they run once the project trusts them).
 */
export async function loadPack(kernel: Kernel, location: PackLocation): Promise<LoadedPack> {
  const { host } = kernel;
  const profilePath = join(location.dir, 'profile.yaml');
  const profile = await readSdlcFile(host, profilePath, ProfileSchema, 'PROFILE_INVALID', kernel.display(profilePath));
  const ownRegistry = join(location.dir, 'phase-registry.yaml');
  const registryPath = (await host.stat(ownRegistry)) ? ownRegistry : bundledRegistryPath(host);
  const registry = await readSdlcFile(host, registryPath, PhaseRegistrySchema, 'REGISTRY_INVALID', kernel.display(registryPath));
  const model = createPhaseModel(registry.value, kernel.display(registryPath));
  const specs = profile.value.sluice?.plugins ?? [];
  // Gate types the pack's own plugins register are checked once those load (trusted, in the project): see profile-rules.ts.
  checkProfile(profile.value, model, kernel, kernel.display(profilePath));
  // A re-init from the project reads the frozen copies in .sdlc/plugins/.
  const pluginsDir = location.source === 'project' ? frozenPluginsDir(location.dir) : location.dir;
  const plugins: LoadedPack['plugins'] = [];
  for (const [i, spec] of specs.entries()) {
    const path = packPluginFile(pluginsDir, spec);
    if ((await host.stat(path))?.kind !== 'file')
      throw new SluiceError('PROFILE_INVALID', {
        file: kernel.display(profilePath),
        field: `sluice.plugins.${i}`,
        message: `pack plugin ${spec} is not a file in the pack`,
      });
    plugins.push({ spec, text: await host.readText(path, { maxBytes: MAX_PLUGIN_BYTES }) });
  }

  const compliance: LoadedPack['compliance'] = [];
  for (const framework of profileFrameworks(profile.value)) {
    const path = await findComplianceFile(host, [location.dir, location.fallbackDir], framework);
    if (!path) {
      throw new SluiceError('PROFILE_INVALID', {
        file: kernel.display(profilePath),
        field: 'compliance.frameworks',
        message: `framework ${framework} has no gate file: add compliance/${framework}-gates.yaml to the pack`,
      });
    }
    const file = await readSdlcFile(host, path, ComplianceFileSchema, 'COMPLIANCE_INVALID', kernel.display(path));
    checkCompliance(file.value, model, kernel.display(path));
    compliance.push({ framework, file });
  }
  return { location, profile, registry, model, compliance, plugins };
}
