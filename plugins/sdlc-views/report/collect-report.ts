import type { Kernel } from '../../../core/index.ts';
import { type SdlcProject, phaseKey } from '../../sdlc/index.ts';
import { phaseIntervals } from '../model/phase-intervals.ts';
import { phaseViews, type PhaseView } from '../model/phase-views.ts';
import { readArtifactFacts, type PhaseArtifactFacts } from '../model/read-artifact-facts.ts';
import { historyLine, statusView, type HistoryLine, type StatusView } from '../model/status-view.ts';
import { timestampMs } from '../model/timestamps.ts';
import { readArtifactDocuments, type ArtifactDocument } from './read-artifact-content.ts';
import type { TimelineRow } from './timeline-svg.ts';

/** Everything the report pages show, gathered once; rendering is pure from here on. */
export interface ReportData {
  status: StatusView;
  /** The whole history, oldest first. */
  history: HistoryLine[];
  phases: PhaseView[];
  facts: Map<string, PhaseArtifactFacts>;
  /** Artifact documents by phase id, then by artifact `rel`. */
  documents: Map<string, Map<string, ArtifactDocument[]>>;
  timeline: { rows: TimelineRow[]; start: number; end: number };
  generatedAt: string;
}

/** Reads state, registry, artifact folders and (for the phases asked for) artifact contents. */
export async function collectReport(kernel: Kernel, project: SdlcProject, phaseIds: readonly string[]): Promise<ReportData> {
  const { state, model } = project;
  const phases = phaseViews(state, model, project.compliance);
  const facts = await readArtifactFacts(kernel.host, project.root, state, model);
  const documents = new Map<string, Map<string, ArtifactDocument[]>>();
  for (const id of phaseIds) {
    const byRel = new Map<string, ArtifactDocument[]>();
    for (const artifact of facts.get(id)?.list ?? []) byRel.set(artifact.rel, await readArtifactDocuments(kernel.host, project.root, artifact));
    documents.set(id, byRel);
  }
  const generatedAt = kernel.host.now().toISOString();
  const intervals = phaseIntervals(state.created_at, phaseKey(model.first().id), state.history, generatedAt);
  const rows: TimelineRow[] = phases.map((p) => ({ id: p.id, label: p.display, status: p.status, current: p.current, intervals: intervals.get(p.id) ?? [] }));
  const start = timestampMs(state.created_at);
  return {
    status: statusView(state, phases, facts),
    history: state.history.map(historyLine),
    phases,
    facts,
    documents,
    timeline: { rows, start, end: Math.max(timestampMs(generatedAt), start + 1000) },
    generatedAt,
  };
}
