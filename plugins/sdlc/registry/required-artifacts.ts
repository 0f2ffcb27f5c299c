import type { ProjectType } from '../state/state-schema.ts';
import type { ArtifactEntry, PhaseDefinition } from './registry-schema.ts';

/** One artifact a phase requires, resolved to a path relative to the project root. */
export interface RequiredArtifact {
  /** As the registry names it (`README.md`, `adrs/`). */
  name: string;
  /** Relative to the project root (`.sdlc/artifacts/07-documentation/api-docs.md`, `README.md`). */
  rel: string;
  root: 'repo' | 'phase';
  dir: boolean;
  /** False when `required_for` excludes the project's type: reported, not checked. */
  applies: boolean;
  note?: string;
}

const normalize = (entry: ArtifactEntry) =>
  typeof entry === 'string'
    ? { path: entry, root: 'phase' as const, required_for: undefined }
    : { path: entry.path, root: entry.root ?? 'phase', required_for: entry.required_for };

/**
 * The artifacts G1/G2 check for a phase: `artifacts.required` (honouring `root` and `required_for`)
 * plus any `exists_and_complete` exit condition not listed there. An exit condition naming an
 * artifact the required list excludes for this project type is excluded too, so the gate agrees
 * with the phase body instead of blocking on nothing.
 */
export function requiredArtifacts(phase: PhaseDefinition, projectType: ProjectType | null | undefined): RequiredArtifact[] {
  const phaseDir = `.sdlc/artifacts/${phase.slug}`;
  const out: RequiredArtifact[] = [];
  const listed = new Set<string>();
  for (const entry of phase.artifacts?.required ?? []) {
    const e = normalize(entry);
    listed.add(e.path);
    let applies = true;
    let note: string | undefined;
    if (e.required_for) {
      if (projectType === null || projectType === undefined) note = `required for ${e.required_for.join(', ')}; project_type is not set, so it is required`;
      else if (!e.required_for.includes(projectType)) {
        applies = false;
        note = `required only for ${e.required_for.join(', ')}, not for ${projectType} projects`;
      }
    }
    out.push({
      name: e.path,
      rel: e.root === 'repo' ? e.path : `${phaseDir}/${e.path}`,
      root: e.root,
      dir: e.path.endsWith('/'),
      applies,
      ...(note ? { note } : {}),
    });
  }
  for (const condition of phase.exit_gate?.conditions ?? []) {
    if (!('artifact' in condition) || listed.has(condition.artifact)) continue;
    listed.add(condition.artifact);
    out.push({ name: condition.artifact, rel: `${phaseDir}/${condition.artifact}`, root: 'phase', dir: condition.artifact.endsWith('/'), applies: true });
  }
  return out;
}

/** The prose exit conditions of a phase: what G7 puts in front of the approver. */
export function proseExitConditions(phase: PhaseDefinition): string[] {
  return (phase.exit_gate?.conditions ?? []).flatMap((c) => ('artifact' in c ? [] : [c.check]));
}
