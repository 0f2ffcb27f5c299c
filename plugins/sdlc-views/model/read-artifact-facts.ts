import { join } from 'pathe';
import type { Host } from '../../../core/index.ts';
import { type PhaseModel, phaseKey, type SdlcState } from '../../sdlc/index.ts';
import { phaseArtifacts, type ArtifactView } from './phase-views.ts';

export interface PhaseArtifactFacts {
  /** Entries in `.sdlc/artifacts/<slug>/` (hidden files aside). */
  files: number;
  /** Names of those entries, sorted. */
  entries: string[];
  list: ArtifactView[];
}

async function listNames(host: Host, dir: string): Promise<string[]> {
  try {
    return (await host.listDir(dir))
      .filter((e) => !e.name.startsWith('.'))
      .map((e) => e.name)
      .sort();
  } catch {
    return [];
  }
}

/** The disk side of the views: what each phase folder holds and which registry artifacts exist. */
export async function readArtifactFacts(host: Host, root: string, state: SdlcState, model: PhaseModel): Promise<Map<string, PhaseArtifactFacts>> {
  const perPhase = await Promise.all(
    model.phases.map(async (phase) => {
      const entries = await listNames(host, join(root, '.sdlc/artifacts', phase.slug));
      const wanted = phaseArtifacts(phase, state.project_type, () => false).map((a) => a.rel);
      const present = new Set<string>();
      await Promise.all(
        wanted.map(async (rel) => {
          const info = await host.stat(join(root, rel)).catch(() => null);
          if (info && (rel.endsWith('/') ? info.kind === 'dir' : info.kind === 'file')) present.add(rel);
        }),
      );
      const list = phaseArtifacts(phase, state.project_type, (rel) => present.has(rel));
      return [phaseKey(phase.id), { files: entries.length, entries, list }] as const;
    }),
  );
  return new Map(perPhase);
}
