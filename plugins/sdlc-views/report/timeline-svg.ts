import type { ActiveInterval } from '../model/phase-intervals.ts';
import { html, trusted, type SafeHtml } from './html-escape.ts';

export interface TimelineRow {
  id: string;
  label: string;
  status: 'pending' | 'active' | 'completed' | 'skipped';
  current: boolean;
  intervals: readonly ActiveInterval[];
  /** Link target for the row label (the phase page), if any. */
  href?: string;
}

const COLOURS = { completed: '#1a7f37', active: '#0969da', skipped: '#8c959f', reentered: '#bf8700' } as const;
const WIDTH = 960;
const LABEL = 190;
const RIGHT = 16;
const ROW = 28;
const TOP = 10;
const AXIS = 34;

/** The legend under the picture, in the same colours. */
export function timelineLegend(): SafeHtml {
  const item = (colour: string, label: string, dashed = false) =>
    html`<span class="legend-item"><svg width="22" height="12" aria-hidden="true"><rect x="1" y="1" width="20" height="10" rx="2" fill="${colour}"${dashed ? trusted(' stroke="#57606a" stroke-dasharray="4 3"') : ''}/></svg> ${label}</span>`;
  return html`<p class="legend">${item(COLOURS.completed, 'completed')}${item(COLOURS.active, 'active now')}${item(COLOURS.skipped, 'skipped', true)}${item(COLOURS.reentered, 'left for a re-entry')}</p>`;
}

/** Axis ticks at round steps (seconds to months), whichever gives 3–8 ticks. */
function ticks(start: number, end: number): { at: number; label: string }[] {
  const span = Math.max(end - start, 1);
  const seconds = [1, 5, 15, 30, 60, 300, 900, 3600, 10800, 21600, 43200, 86400, 172800, 259200, 604800, 1209600, 2592000, 7776000];
  const step = (seconds.find((s) => span / (s * 1000) <= 8) ?? seconds[seconds.length - 1]) * 1000;
  const fmt = (ms: number) => {
    const iso = new Date(ms).toISOString();
    if (step >= 86_400_000) return iso.slice(0, 10);
    if (step < 60_000) return iso.slice(11, 19);
    return span > 86_400_000 ? `${iso.slice(5, 10)} ${iso.slice(11, 16)}` : iso.slice(11, 16);
  };
  const out: { at: number; label: string }[] = [];
  for (let t = Math.ceil(start / step) * step; t <= end; t += step) out.push({ at: t, label: fmt(t) });
  return out;
}

/**
 * The phases as a Gantt picture in inline SVG: one row per phase in registry order, a bar for each
 * stretch the phase was active (a re-entered phase has two), skips drawn dashed, the current phase
 * outlined. Text is escaped like everything else on the page.
 */
export function renderTimeline(rows: readonly TimelineRow[], start: number, end: number): SafeHtml {
  const height = TOP + rows.length * ROW + AXIS;
  const span = Math.max(end - start, 1);
  const x = (t: number) => LABEL + ((t - start) / span) * (WIDTH - LABEL - RIGHT);
  const grid = ticks(start, end).map(
    (t) =>
      html`<line x1="${x(t.at).toFixed(1)}" y1="${TOP}" x2="${x(t.at).toFixed(1)}" y2="${height - AXIS + 4}" stroke="#d9dee7"/><text x="${x(t.at).toFixed(1)}" y="${height - AXIS + 18}" font-size="11" text-anchor="middle" fill="#5b6474">${t.label}</text>`,
  );
  const body = rows.map((row, i) => {
    const y = TOP + i * ROW;
    const label = html`<text x="8" y="${y + 18}" font-size="13" font-weight="${row.current ? '700' : '400'}" fill="#1d2330">${row.label}</text>`;
    const bars = row.intervals.map((iv) => {
      const x0 = x(iv.start);
      const w = Math.max(x(iv.end) - x0, 4);
      const fill = iv.open ? COLOURS.active : iv.endedBy === 'skip' ? COLOURS.skipped : iv.endedBy === 'reentry' ? COLOURS.reentered : COLOURS.completed;
      // Constant attribute fragments of this file, never data.
      const outline = trusted(iv.endedBy === 'skip' ? ' stroke-dasharray="4 3" stroke="#57606a"' : iv.open ? ' stroke="#033d8b" stroke-width="2"' : '');
      const title = `${row.label}: ${new Date(iv.start).toISOString()} – ${iv.open ? 'now' : new Date(iv.end).toISOString()}${iv.startedBy === 'reentry' ? ' (re-entered)' : ''}${iv.endedBy === 'skip' ? ' (skipped)' : ''}`;
      return html`<rect x="${x0.toFixed(1)}" y="${y + 6}" width="${w.toFixed(1)}" height="${ROW - 12}" rx="3" fill="${fill}"${outline}><title>${title}</title></rect>`;
    });
    const none = row.intervals.length === 0 ? html`<text x="${LABEL + 6}" y="${y + 18}" font-size="11" fill="#8c959f">${row.status}</text>` : '';
    const link = row.href ? html`<a href="${row.href}">${label}</a>` : label;
    return html`<g class="row" data-phase="${row.id}" data-status="${row.status}"><rect x="0" y="${y}" width="${WIDTH}" height="${ROW}" fill="${i % 2 ? '#ffffff' : '#f6f8fb'}"/>${link}${bars}${none}</g>`;
  });
  return html`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${WIDTH} ${height}" width="${WIDTH}" height="${height}" role="img" aria-label="Phase timeline">${grid}${body}<line x1="${LABEL}" y1="${height - AXIS + 4}" x2="${WIDTH - RIGHT}" y2="${height - AXIS + 4}" stroke="#8c959f"/></svg>`;
}
