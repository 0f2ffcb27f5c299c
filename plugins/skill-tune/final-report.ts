import { DIMENSION_LABELS, DIMENSIONS } from './evaluation-scoring.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { bulletList } from './prompt-sections.ts';
import { artifactIndex, iterationDetails, outsideSection, trendLine } from './report-details.ts';
import type { ChartPoint } from './score-chart.ts';
import { workspacePaths as P } from './tune-workspace.ts';

/** `final-report.md`: outcome, score table and chart, remaining weaknesses, and how to undo the run. */
export const REASON_TEXT = {
  quality_threshold_met: 'Threshold reached',
  max_iterations_reached: 'Maximum iterations reached',
  convergence_detected: 'Converged',
  error_limit_reached: 'Stopped after repeated errors',
} as const;

const shellQuote = (s: string) => (/^[\w@%+=:,./-]+$/.test(s) ? s : `'${s.replace(/'/g, `'\\''`)}'`);

/** The exact command that puts the skills back as they were (or as iteration N ran them). */
export function restoreCommand(projectRoot: string, runDirInProject: string, iteration?: number): string {
  return `sluice tune --restore ${shellQuote(runDirInProject)}${iteration === undefined ? '' : ` --iteration ${iteration}`} --cwd ${shellQuote(projectRoot)}`;
}

/** Iterations that produced no score, with the reason recorded for each (newest last). */
export const failedIterations = (s: IterationState): { round: number; note: string }[] =>
  s.iterations
    .filter((it) => it.phase === 'failed')
    .map((it) => ({ round: it.round, note: it.note ?? it.evaluation?.error ?? it.execution?.error ?? 'no detail recorded' }));

export const chartPoints = (s: IterationState): ChartPoint[] => s.iterations.map((it) => ({ iteration: it.round, score: it.evaluation?.score ?? null }));

export interface ReportContext {
  projectRoot: string;
  /** The run folder relative to the project root. */
  runDir: string;
}

/** Rendered once the run has terminated. */
export function renderFinalReport(s: IterationState, ctx: ReportContext): string {
  const t = s.termination;
  if (!t) throw new Error('renderFinalReport needs a terminated run');
  const skills = s.chain_order.join(s.execution_mode === 'chain' ? ' → ' : ', ');
  const lines: string[] = [`# Skill tuning report: ${skills}`, ''];
  lines.push(
    `Run \`${ctx.runDir}\` · started ${s.created_at} · completed ${t.at} · ${s.execution_mode} mode · preset ${s.preset} (${s.max_iterations} iterations, threshold ${s.quality_threshold})`,
    `Executor ${s.backends.executor} · evaluator ${s.backends.evaluator} · improver ${s.backends.improver}`,
    '',
    '> Scenario:',
    ...s.scenario.split('\n').map((l) => `> ${l}`),
    '',
    '## Outcome',
    '',
  );
  const evaluated = s.iterations.filter((it) => it.evaluation?.score != null);
  const last = evaluated.at(-1);
  lines.push(`**${REASON_TEXT[t.reason]}** (\`${t.reason}\`) after ${t.iteration} iteration${t.iteration === 1 ? '' : 's'}: ${t.message}.`, '');
  lines.push(
    `Initial score: ${s.score_trend[0] ?? 'none'} · final score: ${s.latest_score ?? 'none'} · best: ${s.best ? `${s.best.score} (iteration ${s.best.iteration})` : 'none'} · threshold: ${s.quality_threshold}`,
    '',
  );
  const failures = failedIterations(s);
  if (failures.length) {
    lines.push(
      t.reason === 'error_limit_reached' ? 'What failed:' : 'Iterations without a score:',
      '',
      bulletList(failures.map((f) => `iteration ${f.round}: ${f.note}`)),
      '',
    );
  }
  if (t.falling)
    lines.push(`⚠ The score was **falling** when the run stopped: the last improvement made the skill worse. Consider restoring the best version (below).`, '');
  const rollbacks = s.iterations.filter((it) => it.improvement?.status === 'rolled_back').map((it) => it.round);
  if (rollbacks.length)
    lines.push(`Improvements rolled back in iteration${rollbacks.length > 1 ? 's' : ''} ${rollbacks.join(', ')} (see the changes files).`, '');
  if (s.self_evaluation_acknowledged)
    lines.push(
      `⚠ The evaluator ran on the executor's backend (${s.backends.executor}); scores may be inflated (acknowledged with --allow-self-evaluation).`,
      '',
    );

  lines.push('## Score progression', '', `![Score by iteration](${P.chart})`, '');
  const chain = s.execution_mode === 'chain';
  lines.push(
    `| Iteration | Score | ${DIMENSIONS.map((d) => DIMENSION_LABELS[d]).join(' | ')} |${chain ? ' Per skill |' : ''} Trend | Improvement |`,
    `|---:|---:|${DIMENSIONS.map(() => '---:').join('|')}|${chain ? '---|' : ''}---|---|`,
  );
  for (const it of s.iterations) {
    const e = it.evaluation;
    const score = e?.score == null ? `— (${it.note?.split(':')[0] ?? it.phase})` : `${e.score}${e.source !== 'json' ? '*' : ''}`;
    const dims = DIMENSIONS.map((d) => (e?.dimensions ? String(e.dimensions[d]) : '—'));
    const per = chain
      ? ` ${
          Object.entries(e?.skill_scores ?? {})
            .map(([id, v]) => `${id} ${v}`)
            .join(', ') || '—'
        } |`
      : '';
    const imp = it.improvement
      ? `${it.improvement.status.replace('_', ' ')}${it.improvement.targets.length && chain ? ` (${it.improvement.targets.join(', ')})` : ''}`
      : '—';
    lines.push(
      `| [${it.round}](${P.evalReport(it.round)}) | ${score} | ${dims.join(' | ')} |${per} ${it.trend ?? '—'} | ${it.improvement ? `[${imp}](${P.changes(it.round)})` : imp} |`,
    );
  }
  lines.push('', `**Trend**: ${trendLine(s)}`);
  if (s.iterations.some((it) => it.evaluation?.source && it.evaluation.source !== 'json'))
    lines.push('', '\\* score read from the evaluator\u2019s text by the heuristic extraction (no valid JSON).');
  lines.push('');

  lines.push(...iterationDetails(s), ...outsideSection(s));
  lines.push('## Remaining weaknesses', '');
  if (last?.evaluation) {
    lines.push(`From the last evaluation (iteration ${last.round}):`, '', bulletList(last.evaluation.weaknesses), '');
    const open = last.improvement?.status === 'applied' ? [] : last.evaluation.suggestions;
    if (open.length)
      lines.push('Suggestions not yet applied:', '', bulletList(open.map((x) => `[${x.priority}]${x.target ? ` (${x.target})` : ''} ${x.text}`)), '');
  } else lines.push('No iteration produced an evaluation.', '');

  lines.push(
    '## Restore',
    '',
    'The skills are tuned in place; the originals are backed up in `backup/`. To put them back exactly as they were:',
    '',
    '```sh',
    restoreCommand(ctx.projectRoot, ctx.runDir),
    '```',
    '',
  );
  // After the run the skills are what the last iteration ran (a stopped run applies no improvement).
  if (s.best && s.best.iteration !== s.current_iteration) {
    lines.push(
      `The best-scoring version (${s.best.score}, iteration ${s.best.iteration}) is not the final one. To restore it instead:`,
      '',
      '```sh',
      restoreCommand(ctx.projectRoot, ctx.runDir, s.best.iteration),
      '```',
      '',
    );
  }
  lines.push(...artifactIndex(s, ctx.runDir));
  return `${lines.join('\n').trimEnd()}\n`;
}
