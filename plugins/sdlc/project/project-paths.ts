import { join } from 'pathe';

/** Where an SDLC project keeps its files, all under `.sdlc/` at the project root. */
export interface SdlcPaths {
  root: string;
  dir: string;
  state: string;
  profile: string;
  registry: string;
  complianceDir: string;
  artifacts: string;
  /** `.sdlc/artifacts/<slug>`, relative to the root. */
  artifactDirRel(slug: string): string;
  complianceFile(framework: string): string;
}

export function sdlcPaths(root: string): SdlcPaths {
  const dir = join(root, '.sdlc');
  return {
    root,
    dir,
    state: join(dir, 'state.yaml'),
    profile: join(dir, 'profile.yaml'),
    registry: join(dir, 'phase-registry.yaml'),
    complianceDir: join(dir, 'compliance'),
    artifacts: join(dir, 'artifacts'),
    artifactDirRel: (slug) => `.sdlc/artifacts/${slug}`,
    complianceFile: (framework) => join(dir, 'compliance', `${framework}-gates.yaml`),
  };
}
