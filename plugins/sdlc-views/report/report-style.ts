/**
 * The reports' only stylesheet, inlined into every page: system fonts, no web fonts, no images,
 * so a page is one file that renders the same offline, in a mail attachment or in CI artifacts.
 */
export const REPORT_CSS = `
:root { --fg:#1d2330; --muted:#5b6474; --line:#d9dee7; --bg:#ffffff; --panel:#f6f8fb;
  --pass:#1a7f37; --fail:#cf222e; --manual:#9a6700; --info:#0969da; --skip:#6e7781; }
* { box-sizing: border-box; }
body { margin: 0; background: var(--bg); color: var(--fg); font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; }
main { max-width: 1080px; margin: 0 auto; padding: 24px 32px 48px; }
header.page { border-bottom: 1px solid var(--line); margin-bottom: 20px; padding-bottom: 12px; }
header.page h1 { margin: 0 0 4px; font-size: 26px; }
header.page p { margin: 0; color: var(--muted); }
nav.crumbs { font-size: 13px; margin-bottom: 8px; }
h2 { font-size: 19px; margin: 28px 0 10px; }
h3 { font-size: 16px; margin: 18px 0 8px; }
a { color: var(--info); }
table { border-collapse: collapse; width: 100%; margin: 8px 0 16px; font-size: 14px; }
th, td { text-align: left; padding: 6px 8px; border-bottom: 1px solid var(--line); vertical-align: top; }
th { background: var(--panel); font-weight: 600; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
.badge { display: inline-block; padding: 1px 8px; border-radius: 10px; font-size: 12px; font-weight: 600; color: #fff; white-space: nowrap; }
.badge.pass, .badge.completed { background: var(--pass); }
.badge.fail { background: var(--fail); }
.badge.manual { background: var(--manual); }
.badge.info, .badge.active { background: var(--info); }
.badge.skipped, .badge.pending, .badge.na { background: var(--skip); }
.muted { color: var(--muted); }
.summary { display: flex; gap: 12px; flex-wrap: wrap; margin: 12px 0; }
.summary div { background: var(--panel); border: 1px solid var(--line); border-radius: 6px; padding: 8px 14px; min-width: 120px; }
.summary strong { display: block; font-size: 20px; }
.timeline { border: 1px solid var(--line); border-radius: 6px; background: var(--panel); padding: 8px; overflow-x: auto; }
.timeline svg { display: block; width: 100%; height: auto; }
section.artifact { border: 1px solid var(--line); border-radius: 6px; margin: 12px 0; }
section.artifact > header { background: var(--panel); padding: 6px 12px; border-bottom: 1px solid var(--line); font-size: 14px; }
section.artifact > .content { padding: 4px 16px; overflow-x: auto; }
section.artifact > .content pre { background: var(--panel); padding: 8px; overflow-x: auto; }
.legend { font-size: 13px; color: var(--muted); display: flex; gap: 16px; flex-wrap: wrap; margin: 6px 0; }
.legend-item svg { vertical-align: -1px; }
.img-alt { color: var(--muted); font-style: italic; }
ul.manual li { margin: 4px 0; }
footer.page { margin-top: 32px; font-size: 12px; color: var(--muted); }
@media print { .timeline { overflow: visible; } section.artifact { break-inside: avoid; } }
`;
