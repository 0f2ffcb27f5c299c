/** Line coverage read from a report file, whatever its format. */
export interface CoverageFile {
  /** Source path as the report names it. */
  path: string;
  found: number;
  hit: number;
}

export interface CoverageReport {
  /** Report file, relative to the project root. */
  source: string;
  format: 'lcov' | 'istanbul-json-summary' | 'cobertura';
  found: number;
  hit: number;
  /** Line coverage percentage; NaN when the report measured no lines. */
  pct: number;
  files: CoverageFile[];
}

export const percent = (hit: number, found: number) => (found === 0 ? Number.NaN : Math.round((hit / found) * 10000) / 100);

/** A report whose content is not coverage: the gate fails with this message instead of guessing. */
export class CoverageFormatError extends Error {}
