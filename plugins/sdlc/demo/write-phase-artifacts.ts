import { dirname, join } from 'pathe';
import type { Host } from '../../../core/index.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import { requiredArtifacts } from '../registry/required-artifacts.ts';
import type { ProjectType } from '../state/state-schema.ts';
import { ARTIFACT_TEXTS, genericArtifactText } from './artifact-texts.ts';

/**
 * Writes every artifact a phase requires for the project type (phase folder or repo root, folders
 * with one record inside), so its G1/G2 and artifact compliance checks can pass. Returns the paths written.
 */
export async function writePhaseArtifacts(host: Host, root: string, phase: PhaseDefinition, projectType: ProjectType | null): Promise<string[]> {
  const written: string[] = [];
  const title = phase.display ?? `Phase ${String(phase.id)}`;
  for (const a of requiredArtifacts(phase, projectType)) {
    if (!a.applies) continue;
    const file = a.dir ? join(root, a.rel, '0001-record.md') : join(root, a.rel);
    const text = a.dir
      ? `# ${a.name.replace(/\/$/, '')}: first record\n\nContext, options considered (two), decision and consequences, accepted by Priya Natarajan.\n`
      : (ARTIFACT_TEXTS[a.name] ?? genericArtifactText(a.name, title, phase.description ?? phase.name));
    await host.mkdir(dirname(file));
    await host.writeAtomic(file, text);
    written.push(file);
  }
  return written;
}

/** An lcov tracefile with the given line coverage, as a test runner would leave it. */
export function lcovReport(files: { path: string; found: number; hit: number }[]): string {
  return files.map((f) => `TN:\nSF:${f.path}\nLF:${f.found}\nLH:${f.hit}\nend_of_record\n`).join('');
}
