import { formatDate, formatTimestamp } from '../model/timestamps.ts';
import type { ReportData } from './collect-report.ts';
import { html } from './html-escape.ts';
import { historyTable, resultCounts, statusBadge, summaryBoxes, timelineFigure } from './report-parts.ts';
import { renderPage } from './report-page.ts';

/** The file name of a phase's page: `02-design-report.html`, as the reference's generate_phase_report.py names it (its handoff report links these). */
export const phasePageName = (slug: string): string => `${slug}-report.html`;

/** `report --all`'s index: progress, the timeline (linked to the phase pages), every phase and the full history. */
export function renderIndexPage(data: ReportData): string {
  const s = data.status;
  const current = data.phases.find((p) => p.current);
  const rows = data.phases.map((p) => {
    const c = resultCounts(p.gateResults);
    const row = s.phases.find((r) => r.id === p.id)!;
    return html`<tr data-phase="${p.id}"><td><a href="${phasePageName(p.slug)}">${p.display}</a></td><td>${statusBadge(p.status)}</td><td>${formatDate(p.enteredAt)}</td><td>${formatDate(p.completedAt)}</td><td class="num">${p.gateResults.length ? `${c.passed}/${c.failed}/${c.manual}` : '—'}</td><td class="num">${row.artifacts.required ? `${row.artifacts.requiredPresent}/${row.artifacts.required}` : '—'}</td><td class="num">${row.artifacts.files}</td><td class="num">${p.pending.length || '—'}</td></tr>`;
  });
  const body = html`${summaryBoxes([
    ['current phase', s.currentPhase.display],
    ['phases done', `${s.progress.done}/${s.progress.total}`],
    ['transitions', s.historyTotal],
    ['judgements to sign now', current?.pending.length ?? 0],
  ])}
${timelineFigure(
  data.timeline.rows.map((r) => ({ ...r, href: phasePageName(data.phases.find((p) => p.id === r.id)!.slug) })),
  data.timeline.start,
  data.timeline.end,
)}
<h2>Phases</h2>
<table class="phases">
<thead><tr><th>Phase</th><th>Status</th><th>Entered</th><th>Completed</th><th class="num">Gates (pass/fail/manual)</th><th class="num">Required present</th><th class="num">Files</th><th class="num">To sign</th></tr></thead>
<tbody>${rows}</tbody>
</table>
<h2>History</h2>
${historyTable(data.history)}`;
  return renderPage({
    title: `SDLC report — ${s.project}`,
    subtitle: `Profile ${s.profile} · project type ${s.projectType ?? '—'} · started ${formatTimestamp(s.createdAt)}`,
    generatedAt: formatTimestamp(data.generatedAt),
    body,
  });
}
