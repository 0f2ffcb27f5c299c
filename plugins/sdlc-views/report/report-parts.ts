import { type StoredGateResult, personLabel } from '../../sdlc/index.ts';
import type { HistoryLine } from '../model/status-view.ts';
import { formatTimestamp } from '../model/timestamps.ts';
import { html, type SafeHtml } from './html-escape.ts';
import { renderTimeline, timelineLegend, type TimelineRow } from './timeline-svg.ts';

/** The verdict of one result as a badge: pass, fail, manual (a person must judge) or info. */
export function resultBadge(r: Pick<StoredGateResult, 'passed' | 'severity'>): SafeHtml {
  if (r.severity === 'INFO') return html`<span class="badge info">info</span>`;
  if (r.passed === true) return html`<span class="badge pass">pass</span>`;
  if (r.passed === false) return html`<span class="badge fail">fail</span>`;
  return html`<span class="badge manual">manual</span>`;
}

export const statusBadge = (status: string): SafeHtml => html`<span class="badge ${status}">${status}</span>`;

/** Counts of a run, INFO rows aside (they are reports, not verdicts). */
export function resultCounts(results: readonly StoredGateResult[]): { passed: number; failed: number; manual: number } {
  const verdicts = results.filter((r) => r.severity !== 'INFO');
  return {
    passed: verdicts.filter((r) => r.passed === true).length,
    failed: verdicts.filter((r) => r.passed === false).length,
    manual: verdicts.filter((r) => r.passed === null).length,
  };
}

export function summaryBoxes(boxes: readonly [label: string, value: string | number][]): SafeHtml {
  return html`<div class="summary">${boxes.map(([label, value]) => html`<div><strong>${value}</strong>${label}</div>`)}</div>`;
}

export function gateResultsTable(results: readonly StoredGateResult[]): SafeHtml {
  if (results.length === 0) return html`<p class="muted">No gate run recorded for this phase yet.</p>`;
  return html`<table class="gate-results">
<thead><tr><th>Gate</th><th>Checked</th><th>Result</th><th>Severity</th><th>Message</th></tr></thead>
<tbody>${results.map(
    (r) =>
      html`<tr><td>${r.gate}</td><td>${r.artifact ?? r.check ?? '—'}${r.id ? html`<br><code class="muted">${r.id}</code>` : ''}</td><td>${resultBadge(r)}</td><td>${r.severity}</td><td>${r.message}</td></tr>`,
  )}</tbody>
</table>`;
}

export function timelineFigure(rows: readonly TimelineRow[], start: number, end: number): SafeHtml {
  return html`<h2>Timeline</h2>
<div class="timeline">${renderTimeline(rows, start, end)}</div>
${timelineLegend()}
<p class="muted">Each bar is a stretch of time a phase was active; a re-entered phase has one bar per stretch.</p>`;
}

export function historyTable(lines: readonly HistoryLine[]): SafeHtml {
  if (lines.length === 0) return html`<p class="muted">No transitions yet.</p>`;
  const kind = (k: HistoryLine['kind']) => (k === 'reentry' ? 're-entry' : k === 'waiver-acceptance' ? 'waiver acceptance' : k);
  return html`<table class="history">
<thead><tr><th>When</th><th>Transition</th><th>Kind</th><th class="num">Gates (pass/fail/manual)</th><th>By</th><th>Justification</th></tr></thead>
<tbody>${lines.map(
    (h) =>
      html`<tr><td>${formatTimestamp(h.at)}</td><td>${h.from} → ${h.to}</td><td>${kind(h.kind)}</td><td class="num">${h.gateSummary ? `${h.gateSummary.passed}/${h.gateSummary.failed}/${h.gateSummary.manual}` : '—'}</td><td>${h.approver || h.signedBy ? personLabel(h.approver, h.signedBy) : '—'}</td><td>${h.justification ?? '—'}</td></tr>`,
  )}</tbody>
</table>`;
}
