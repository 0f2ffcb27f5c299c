/**
 * `score-chart.svg`: score by iteration, the threshold as a dashed line, failed iterations as
 * red crosses on the axis. A plain hand-built SVG: a dozen elements, no charting library needed.
 */
export interface ChartPoint {
  iteration: number;
  score: number | null;
}

const W = 640;
const H = 320;
const M = { left: 48, right: 96, top: 36, bottom: 44 };
/** Points sit this far inside the plot so labels at the first and last iteration are not cut. */
const PAD = 28;
const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const r1 = (n: number) => Math.round(n * 10) / 10;

export function renderScoreChart(points: readonly ChartPoint[], threshold: number, title: string): string {
  const n = Math.max(points.length, 1);
  const plotW = W - M.left - M.right;
  const plotH = H - M.top - M.bottom;
  const x = (i: number) => r1(M.left + PAD + (n === 1 ? (plotW - 2 * PAD) / 2 : (i * (plotW - 2 * PAD)) / (n - 1)));
  const y = (score: number) => r1(M.top + plotH - (score / 100) * plotH);
  const out: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<title>${esc(title)}</title>`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${M.left}" y="20" font-size="14" font-weight="bold">${esc(title)}</text>`,
  ];
  for (const tick of [0, 25, 50, 75, 100]) {
    out.push(`<line x1="${M.left}" y1="${y(tick)}" x2="${W - M.right}" y2="${y(tick)}" stroke="#e5e7eb"/>`);
    out.push(`<text x="${M.left - 8}" y="${y(tick) + 4}" text-anchor="end" fill="#6b7280">${tick}</text>`);
  }
  out.push(`<line x1="${M.left}" y1="${y(threshold)}" x2="${W - M.right}" y2="${y(threshold)}" stroke="#16a34a" stroke-dasharray="6 4"/>`);
  out.push(`<text x="${W - M.right + 6}" y="${y(threshold) + 4}" fill="#16a34a">threshold ${threshold}</text>`);
  points.forEach((p, i) => out.push(`<text x="${x(i)}" y="${H - M.bottom + 18}" text-anchor="middle" fill="#374151">${p.iteration}</text>`));
  out.push(`<text x="${M.left + plotW / 2}" y="${H - 8}" text-anchor="middle" fill="#374151">iteration</text>`);
  const real = points.map((p, i) => ({ ...p, i })).filter((p): p is ChartPoint & { i: number; score: number } => p.score !== null);
  if (real.length > 1) out.push(`<polyline fill="none" stroke="#2563eb" stroke-width="2" points="${real.map((p) => `${x(p.i)},${y(p.score)}`).join(' ')}"/>`);
  for (const p of real) {
    out.push(`<circle cx="${x(p.i)}" cy="${y(p.score)}" r="4" fill="#2563eb"><title>iteration ${p.iteration}: ${p.score}</title></circle>`);
    out.push(`<text x="${x(p.i)}" y="${y(p.score) - 9}" text-anchor="middle" fill="#1e3a8a">${p.score}</text>`);
  }
  points.forEach((p, i) => {
    if (p.score !== null) return;
    const cx = x(i);
    const cy = y(0);
    out.push(
      `<path d="M${cx - 5} ${cy - 5}L${cx + 5} ${cy + 5}M${cx - 5} ${cy + 5}L${cx + 5} ${cy - 5}" stroke="#dc2626" stroke-width="2"><title>iteration ${p.iteration}: no score</title></path>`,
    );
  });
  out.push('</svg>');
  return `${out.join('\n')}\n`;
}
