import type { ArtifactView, PhaseView } from '../model/phase-views.ts';
import { historyLine } from '../model/status-view.ts';
import { formatTimestamp } from '../model/timestamps.ts';
import { personLabel } from '../../sdlc/index.ts';
import type { ReportData } from './collect-report.ts';
import { html, type SafeHtml } from './html-escape.ts';
import type { ArtifactDocument } from './read-artifact-content.ts';
import type { MarkdownRenderer } from './render-markdown.ts';
import { gateResultsTable, historyTable, resultCounts, statusBadge, summaryBoxes, timelineFigure } from './report-parts.ts';
import { renderPage } from './report-page.ts';

function artifactState(a: ArtifactView): SafeHtml {
  if (!a.applies) return html`<span class="badge na">not required</span>`;
  return a.exists
    ? html`<span class="badge pass">present</span>`
    : a.kind === 'required'
      ? html`<span class="badge fail">missing</span>`
      : html`<span class="badge pending">absent</span>`;
}

function artifactTable(list: readonly ArtifactView[], others: readonly string[]): SafeHtml {
  return html`<table class="artifacts">
<thead><tr><th>Artifact</th><th>Kind</th><th>Location</th><th>State</th><th>Note</th></tr></thead>
<tbody>${list.map((a) => html`<tr><td>${a.name}</td><td>${a.kind}</td><td><code>${a.rel}</code></td><td>${artifactState(a)}</td><td>${a.note ?? '—'}</td></tr>`)}
${others.map((name) => html`<tr><td>${name}</td><td>other</td><td>—</td><td><span class="badge info">present</span></td><td>in the phase folder, not named by the registry</td></tr>`)}</tbody>
</table>`;
}

function documentSection(doc: ArtifactDocument, md: MarkdownRenderer): SafeHtml {
  const content =
    doc.body.kind === 'markdown'
      ? md(doc.body.text)
      : doc.body.kind === 'text'
        ? html`<pre>${doc.body.text}</pre>`
        : html`<p class="muted">${doc.body.note}</p>`;
  return html`<section class="artifact" data-artifact="${doc.rel}"><header><code>${doc.rel}</code></header><div class="content">${content}</div></section>`;
}

function judgements(p: PhaseView): SafeHtml {
  const pending = p.pending.length
    ? html`<ul class="manual pending">${p.pending.map((j) => html`<li>${j.text} <span class="muted">— ${j.gate}${j.id ? html`, approve with <code>--approve ${j.id}</code>` : ''}${j.source === 'gate run' ? '' : ` (asked by the next gate run, from the ${j.source})`}</span></li>`)}</ul>`
    : html`<p class="muted">${p.status === 'completed' || p.status === 'skipped' ? 'None: the phase is closed.' : 'None.'}</p>`;
  const signed = p.signed.length
    ? html`<h3>Signed</h3><ul class="manual signed">${p.signed.map((a) => html`<li><code>${a.gate}</code> signed by ${personLabel(a.signed_by, a.signedPrincipal)} at ${formatTimestamp(a.at)}</li>`)}</ul>`
    : '';
  return html`<h2>Manual judgements still to sign (${p.pending.length})</h2>${pending}${signed}`;
}

/** One phase's page: gate results, judgements to sign, artifacts (rendered), the timeline and its transitions. */
export function renderPhasePage(data: ReportData, phase: PhaseView, md: MarkdownRenderer, indexHref?: string): string {
  const facts = data.facts.get(phase.id);
  const list = facts?.list ?? [];
  const named = new Set(list.filter((a) => a.root === 'phase').map((a) => a.name.split('/')[0]));
  const others = (facts?.entries ?? []).filter((name) => !named.has(name));
  const counts = resultCounts(phase.gateResults);
  const required = list.filter((a) => a.kind === 'required' && a.applies);
  const docs = data.documents.get(phase.id) ?? new Map<string, ArtifactDocument[]>();
  const source = phase.gateResultsFrom === 'history' ? html`<p class="muted">Results stored with the phase's last advance.</p>` : '';
  const body = html`${statusBadge(phase.status)}${phase.current ? html` <span class="badge active">current phase</span>` : ''}
<p>${phase.description ?? ''}</p>
${summaryBoxes([
  ['entered', formatTimestamp(phase.enteredAt)],
  ['completed', formatTimestamp(phase.completedAt)],
  ['passed / failed / manual', `${counts.passed} / ${counts.failed} / ${counts.manual}`],
  ['required artifacts present', `${required.filter((a) => a.exists).length}/${required.length}`],
])}
${timelineFigure(
  data.timeline.rows.map((r) => ({ ...r, current: r.id === phase.id })),
  data.timeline.start,
  data.timeline.end,
)}
<h2>Gate results</h2>${source}${gateResultsTable(phase.gateResults)}
${judgements(phase)}
<h2>Artifacts</h2>
${artifactTable(list, others)}
${list.flatMap((a) => docs.get(a.rel) ?? []).map((d) => documentSection(d, md))}
<h2>Transitions</h2>
${historyTable(phase.transitions.map(historyLine))}`;
  return renderPage({
    title: `${phase.display} — ${data.status.project}`,
    subtitle: `Phase ${phase.id} (${phase.slug}) · profile ${data.status.profile} · project type ${data.status.projectType ?? '—'}`,
    indexHref,
    generatedAt: formatTimestamp(data.generatedAt),
    body,
  });
}
