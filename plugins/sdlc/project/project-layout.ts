import { dirname } from 'pathe';
import { resolveInside, type Kernel } from '../../../core/index.ts';
import type { PhaseModel } from '../registry/phase-model.ts';
import { requiredArtifacts } from '../registry/required-artifacts.ts';
import type { ProjectType } from '../state/state-schema.ts';
import type { SdlcPaths } from './project-paths.ts';
import { constitutionTemplate, starterTemplate } from './starter-templates.ts';

export interface LayoutInput {
  model: PhaseModel;
  projectName: string;
  profileId: string;
  projectType?: ProjectType | null;
}

/**
 * The rest of the seed's layout: `.sdlc/constitution.md`, `context/layers` and `context/intake`,
 * every folder the registry requires (`adrs/`), and a starter template for every required file
 * artifact of every phase that lives in its phase folder (repo-root files are the project's own
 * business). Files that exist are never replaced, so `init --force` keeps every artifact. Returns
 * the files written and the required folders.
 */
export async function writeProjectLayout(kernel: Kernel, paths: SdlcPaths, i: LayoutInput): Promise<{ written: string[]; folders: string[] }> {
  const { host } = kernel;
  await host.mkdir(paths.contextLayers);
  await host.mkdir(paths.contextIntake);
  const files: { path: string; text: string }[] = [{ path: paths.constitution, text: constitutionTemplate(i.projectName, i.profileId) }];
  const folders: string[] = [];
  for (const phase of i.model.phases) {
    for (const a of requiredArtifacts(phase, i.projectType)) {
      if (!a.applies) continue;
      // A required folder (`adrs/`) is made wherever it lives, so G1 finds it; filling it is the phase's work.
      if (a.dir) folders.push(resolveInside(kernel.projectRoot, a.rel, 'artifact folder'));
      if (a.root !== 'phase' || a.dir) continue;
      const text = starterTemplate(phase, a.name, i.projectName);
      if (text !== undefined) files.push({ path: resolveInside(kernel.projectRoot, a.rel, 'artifact'), text });
    }
  }
  const written: string[] = [];
  for (const dir of folders) await host.mkdir(dir);
  for (const f of files) {
    await host.mkdir(dirname(f.path));
    if (await host.writeExclusive(f.path, f.text)) written.push(f.path);
  }
  return { written, folders };
}
