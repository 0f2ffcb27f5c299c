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
  /** Project-wide rules the session hook loads first (seed layout). */
  constitution: string;
  /** Frozen context layers (`phase*.md`) and document intake summaries (seed layout). */
  contextLayers: string;
  contextIntake: string;
  /** Where `init --force` keeps what it replaces, one folder per re-initialisation. */
  backups: string;
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
    constitution: join(dir, 'constitution.md'),
    contextLayers: join(dir, 'context', 'layers'),
    contextIntake: join(dir, 'context', 'intake'),
    backups: join(dir, 'backups'),
    artifactDirRel: (slug) => `.sdlc/artifacts/${slug}`,
    complianceFile: (framework) => join(dir, 'compliance', `${framework}-gates.yaml`),
  };
}
