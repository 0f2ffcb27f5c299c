import type { IterationRecord, IterationState, OutsideChangeRecord } from './iteration-state-schema.ts';
import { workspacePaths as P } from './tune-workspace.ts';

/**
 * The parts of `final-report.md` maestro's report has as well: the trend line, what each iteration
 * found and changed, and an index of the run folder. Plus what sluice alone records: changes a call
 * made outside its folder.
 */
const list = (items: string[], max = 3) => (items.length ? items.slice(0, max).join('; ') : 'none');

/** `60 → 72.5 → 85`, the real scores in order. */
export const trendLine = (s: IterationState) => (s.score_trend.length ? s.score_trend.join(' → ') : 'no score yet');

function changesOf(it: IterationRecord): string {
  const imp = it.improvement;
  if (!imp) return it.phase === 'failed' ? 'none (the iteration failed)' : 'none (the run stopped here)';
  const status = imp.status.replace('_', ' ');
  const parts = [status];
  if (imp.changed_files.length) parts.push(`files: ${imp.changed_files.join(', ')}`);
  if (imp.applied?.length) parts.push(imp.applied.join('; '));
  if (imp.reason && imp.status !== 'applied') parts.push(imp.reason);
  return parts.join(' — ');
}

export function iterationDetails(s: IterationState): string[] {
  const lines = ['## Iteration details', ''];
  for (const it of s.iterations) {
    const e = it.evaluation;
    lines.push(`### Iteration ${it.round}`, '');
    if (e?.score == null) lines.push(`- Score: none (${it.note ?? e?.error ?? it.phase})`);
    else {
      lines.push(
        `- Score: ${e.score}${
          Object.keys(e.skill_scores).length
            ? ` (${Object.entries(e.skill_scores)
                .map(([id, v]) => `${id} ${v}`)
                .join(', ')})`
            : ''
        }`,
      );
      lines.push(`- Strengths: ${list(e.strengths)}`, `- Weaknesses: ${list(e.weaknesses)}`);
    }
    const passedOver = it.execution?.skills.filter((x) => x.status !== 'ok') ?? [];
    if (it.execution?.status === 'ok' && passedOver.length) lines.push(`- Passed over in the chain: ${passedOver.map((x) => x.id).join(', ')}`);
    lines.push(`- Changes: ${changesOf(it)}`, '');
  }
  return lines;
}

/** Every change a call made outside its folder, and whether it was put back. */
export function outsideSection(s: IterationState): string[] {
  const all: (OutsideChangeRecord & { round: number })[] = s.iterations.flatMap((it) =>
    [...(it.execution?.outside_changes ?? []), ...(it.improvement?.outside_changes ?? [])].map((r) => ({ ...r, round: it.round })),
  );
  if (all.length === 0) return [];
  const lines = ['## Changes outside the allowed folders', '', '| Iteration | By | Path | Change | Put back |', '|---:|---|---|---|---|'];
  for (const r of all) lines.push(`| ${r.round} | ${r.role} | \`${r.path}\` | ${r.change} | ${r.restored ? 'yes' : `**no**: ${r.note ?? ''}`} |`);
  lines.push('', '`sluice tune --restore` writes the kept copies back again and names what it cannot undo.', '');
  return lines;
}

export function artifactIndex(s: IterationState, runDir: string): string[] {
  const rows: [string, string][] = [
    [P.state, 'the whole run: settings, every step, scores (`sluice schema iteration-state`)'],
    [`${P.backup('<skill>')}/`, 'the skills before the run (what --restore puts back)'],
    ['iteration-N/skill-snapshot/<skill>/', 'the skills as iteration N ran them (--restore --iteration N)'],
    ['iteration-N/artifacts/', 'what the executor wrote'],
    ['iteration-N/transcripts/', 'every delegate call, as it ran'],
    ['iteration-N-eval.md', 'the evaluation of iteration N'],
    ['iteration-N-changes.md', 'what the improver changed after iteration N'],
    [P.chart, 'the score chart'],
    [P.report, 'this report'],
  ];
  if (s.iterations.some((it) => it.execution?.outside_changes?.length || it.improvement?.outside_changes?.length))
    rows.splice(5, 0, ['iteration-N/outside-before/<role>/', 'what a call changed outside its folder, as it was before']);
  const lines = ['## Artifact index', '', `In \`${runDir}\`:`, '', '| Path | What |', '|---|---|'];
  for (const [path, what] of rows) lines.push(`| \`${path}\` | ${what} |`);
  if (s.adopted_from) lines.push('', `The run continues the maestro run \`${s.adopted_from}\` (its history is imported; that folder is left as it was).`);
  lines.push('');
  return lines;
}
