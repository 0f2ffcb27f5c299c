/**
 * A plain-text table: columns padded to their widest cell, then styled per cell (styling after
 * padding keeps colour codes from skewing the widths). Returns the header, a rule and the rows.
 */
export function textTable(
  header: readonly string[],
  rows: readonly string[][],
  style: (row: readonly string[], col: number, padded: string) => string = (_r, _c, p) => p,
): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const pad = (cells: readonly string[]) => cells.map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i])));
  return [
    pad(header).join('  ').trimEnd(),
    widths.map((w) => '-'.repeat(w)).join('  '),
    ...rows.map((r) =>
      pad(r)
        .map((cell, i) => style(r, i, cell))
        .join('  ')
        .trimEnd(),
    ),
  ];
}
