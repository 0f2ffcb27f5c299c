import { CoverageFormatError, percent, type CoverageFile, type CoverageReport } from './coverage-report.ts';

interface Metric {
  total?: unknown;
  covered?: unknown;
}

/** Istanbul/nyc/c8/vitest `coverage-summary.json` (reporter `json-summary`): `total.lines` plus one entry per file. */
export function readIstanbulSummary(text: string, source: string): CoverageReport {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    throw new CoverageFormatError(`not JSON: ${error instanceof Error ? error.message : String(error)}`);
  }
  const lines = (entry: unknown): Metric | undefined => (entry && typeof entry === 'object' ? ((entry as { lines?: Metric }).lines ?? undefined) : undefined);
  const counts = (m: Metric | undefined) =>
    m && typeof m.total === 'number' && typeof m.covered === 'number' ? { found: m.total, hit: m.covered } : undefined;
  if (!doc || typeof doc !== 'object') throw new CoverageFormatError('not a json-summary object');
  const entries = Object.entries(doc as Record<string, unknown>);
  const total = counts(lines((doc as Record<string, unknown>).total));
  if (!total) throw new CoverageFormatError('no total.lines {total, covered}: not an Istanbul json-summary');
  const files: CoverageFile[] = [];
  for (const [path, entry] of entries) {
    const c = path === 'total' ? undefined : counts(lines(entry));
    if (c) files.push({ path, ...c });
  }
  return { source, format: 'istanbul-json-summary', found: total.found, hit: total.hit, pct: percent(total.hit, total.found), files };
}
