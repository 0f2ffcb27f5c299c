import { CoverageFormatError, percent, type CoverageFile, type CoverageReport } from './coverage-report.ts';

/**
 * lcov tracefile (`lcov.info`): per `SF:` record, `LF`/`LH` totals, or the `DA:line,hits` lines
 * when a tool omits the totals.
 */
export function readLcov(text: string, source: string): CoverageReport {
  const files: CoverageFile[] = [];
  let current: { path: string; lf?: number; lh?: number; da: number; daHit: number } | undefined;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (line.startsWith('SF:')) current = { path: line.slice(3), da: 0, daHit: 0 };
    else if (!current) continue;
    else if (line.startsWith('LF:')) current.lf = Number(line.slice(3));
    else if (line.startsWith('LH:')) current.lh = Number(line.slice(3));
    else if (line.startsWith('DA:')) {
      current.da++;
      if (Number(line.slice(3).split(',')[1]) > 0) current.daHit++;
    } else if (line === 'end_of_record') {
      const found = current.lf ?? current.da;
      const hit = current.lh ?? current.daHit;
      if (!Number.isFinite(found) || !Number.isFinite(hit)) throw new CoverageFormatError(`bad LF/LH numbers for ${current.path}`);
      files.push({ path: current.path, found, hit });
      current = undefined;
    }
  }
  if (files.length === 0) throw new CoverageFormatError('no SF/end_of_record records: not an lcov tracefile');
  const found = files.reduce((n, f) => n + f.found, 0);
  const hit = files.reduce((n, f) => n + f.hit, 0);
  return { source, format: 'lcov', found, hit, pct: percent(hit, found), files };
}
