import type { CommandContext, CommandOutcome } from '../../../core/index.ts';
import { phaseViews } from '../model/phase-views.ts';
import { readArtifactFacts } from '../model/read-artifact-facts.ts';
import { readStatusProject } from '../model/read-status-project.ts';
import { statusView } from '../model/status-view.ts';
import { renderStatus } from './render-status.ts';
import { describeRecords, type HistoryRecords } from '../../sdlc/index.ts';

/** The history's records in --json: the journal's length, verified or unanchored here, entries written outside sluice. */
function recordsView(r: HistoryRecords) {
  return {
    journal: r.provenance,
    entries: r.entries,
    anchor: r.anchoring.state,
    ...(r.anchoring.state === 'verified' && r.anchoring.from > 0 ? { unanchoredThrough: r.anchoring.from } : {}),
    foreign: r.foreign,
  };
}

/** `sluice status`: where the project stands, read from state.yaml, the registry and the artifact folders. */
export async function runStatus(ctx: CommandContext): Promise<CommandOutcome> {
  const project = await readStatusProject(ctx.kernel);
  // Compliance checks only shape the judgements still to sign, which the dashboard does not show.
  const phases = phaseViews(project.state, project.model, []);
  const facts = await readArtifactFacts(ctx.host, project.root, project.state, project.model);
  const view = { ...statusView(project.state, phases, facts, project.history), records: recordsView(project.records) };
  return { exitCode: 0, data: view, human: `${renderStatus(view, ctx.io.style)}\n\n${ctx.io.style.bold('Records')}\n  ${describeRecords(project.records)}` };
}
