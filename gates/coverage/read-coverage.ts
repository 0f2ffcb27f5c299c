import type { Host } from '../../core/index.ts';
import { projectFile, readTextFile } from '../shared/project-file.ts';
import { findReports } from './find-reports.ts';
import { CoverageFormatError, type CoverageReport } from './coverage-report.ts';
import { readCobertura } from './read-cobertura.ts';
import { readIstanbulSummary } from './read-istanbul-summary.ts';
import { readLcov } from './read-lcov.ts';

/**
 * Where test runners write coverage by default, looked at in this order when the profile names
 * none (`sluice.coverage_reports` takes paths and globs). coverlet (`dotnet test --collect "XPlat
 * Code Coverage"`) writes TestResults/<run guid>/coverage.cobertura.xml beside each test project.
 */
export const DEFAULT_COVERAGE_REPORTS = [
  'coverage/coverage-summary.json',
  'coverage/lcov.info',
  'lcov.info',
  'coverage/cobertura-coverage.xml',
  'coverage/coverage.xml',
  'coverage.xml',
  '**/TestResults/*/coverage.cobertura.xml',
];

const MAX_REPORT_BYTES = 128 * 1024 * 1024;

export type CoverageLookup = { report: CoverageReport } | { missing: string[] } | { unreadable: string; error: string };

/** Reads the first coverage report that exists (a glob: its newest match), by content (an lcov named .txt still reads). */
export async function readCoverage(host: Host, projectRoot: string, candidates: readonly string[] = DEFAULT_COVERAGE_REPORTS): Promise<CoverageLookup> {
  for (const pattern of candidates) {
    const [rel] = await findReports(host, projectRoot, pattern);
    if (rel === undefined) continue;
    const { full } = await projectFile(host, projectRoot, rel, 'coverage report path');
    const read = await readTextFile(host, full, MAX_REPORT_BYTES);
    if ('error' in read) return { unreadable: rel, error: read.error };
    try {
      return { report: await parseCoverage(read.text, rel) };
    } catch (error) {
      if (error instanceof CoverageFormatError) return { unreadable: rel, error: error.message };
      throw error;
    }
  }
  return { missing: [...candidates] };
}

export async function parseCoverage(text: string, source: string): Promise<CoverageReport> {
  const start = text.trimStart();
  if (start.startsWith('{')) return readIstanbulSummary(text, source);
  if (start.startsWith('<')) return readCobertura(text, source);
  return readLcov(text, source);
}

/** Coverage of the files under any of the path prefixes (for `coverage_critical`). */
export function coverageUnder(report: CoverageReport, projectRoot: string, prefixes: readonly string[]): { found: number; hit: number; files: number } {
  const norm = (p: string) => {
    const rel = p.startsWith(`${projectRoot}/`) ? p.slice(projectRoot.length + 1) : p;
    return rel.replace(/\\/g, '/').replace(/^\.\//, '');
  };
  const wanted = prefixes.map((p) => norm(p));
  const picked = report.files.filter((f) => wanted.some((w) => norm(f.path).startsWith(w)));
  return { found: picked.reduce((n, f) => n + f.found, 0), hit: picked.reduce((n, f) => n + f.hit, 0), files: picked.length };
}
