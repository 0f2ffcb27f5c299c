import * as v from 'valibot';
import { defineGate, gatePlugin, type GateResult } from '../core/index.ts';
import { percent } from './coverage/coverage-report.ts';
import { coverageUnder, DEFAULT_COVERAGE_REPORTS, readCoverage, type CoverageLookup } from './coverage/read-coverage.ts';

export const MetricsInputSchema = v.object({
  projectRoot: v.string(),
  /** Profile `sluice.coverage_reports`; the usual locations when absent. */
  reports: v.optional(v.array(v.string())),
  coverageMinimum: v.number(),
  coverageCritical: v.optional(v.number()),
  /** Profile `sluice.critical_paths`: source prefixes coverage_critical applies to. */
  criticalPaths: v.optional(v.array(v.string())),
});
export type MetricsInput = v.InferOutput<typeof MetricsInputSchema>;

export const G3 = 'G3-metrics';

/** A one-line reason why no coverage figure is available, or undefined when there is one. */
export function coverageProblem(lookup: CoverageLookup): string | undefined {
  if ('missing' in lookup) return `no coverage report found (looked for ${lookup.missing.join(', ')}); run the tests with coverage first`;
  if ('unreadable' in lookup) return `coverage report ${lookup.unreadable} cannot be read: ${lookup.error}`;
  if (Number.isNaN(lookup.report.pct)) return `coverage report ${lookup.report.source} measured no lines`;
  return undefined;
}

/**
 * G3: quantitative thresholds of the profile against a real coverage report (lcov, Istanbul
 * json-summary, Cobertura). MUST. Where no report exists (a stack sluice cannot read, coverage
 * measured elsewhere) the row is a manual judgement a person signs off with `next --approve`,
 * never a pass and never a dead end; an unreadable report fails.
 */
export const metricsGate = defineGate({
  type: 'metrics',
  id: G3,
  description: 'line coverage from lcov / json-summary / Cobertura meets the profile thresholds',
  input: MetricsInputSchema,
  async check(input, { host }) {
    const lookup = await readCoverage(host, input.projectRoot, input.reports ?? DEFAULT_COVERAGE_REPORTS);
    const problem = coverageProblem(lookup);
    const rows: GateResult[] = [];
    const min = input.coverageMinimum;
    if (problem || !('report' in lookup)) {
      const manual = 'missing' in lookup;
      const say = (id: string) =>
        manual ? `${problem}, or a person who saw the figure signs it off: sluice next --approve ${id} --signed-by NAME` : (problem ?? 'no coverage');
      rows.push({
        gate: G3,
        id: 'G3:coverage_minimum',
        check: `line coverage >= ${min}%`,
        passed: manual ? null : false,
        message: say('G3:coverage_minimum'),
        severity: 'MUST',
      });
      if (input.coverageCritical !== undefined)
        rows.push({
          gate: G3,
          id: 'G3:coverage_critical',
          check: `critical-path coverage >= ${input.coverageCritical}%`,
          passed: manual ? null : false,
          message: say('G3:coverage_critical'),
          severity: 'MUST',
        });
      return rows;
    }
    const r = lookup.report;
    rows.push({
      gate: G3,
      id: 'G3:coverage_minimum',
      check: `line coverage >= ${min}%`,
      passed: r.pct >= min,
      message: `line coverage ${r.pct}% (${r.hit}/${r.found} lines, ${r.source}) ${r.pct >= min ? 'meets' : 'is below'} the profile minimum ${min}%`,
      severity: 'MUST',
      value: r.pct,
      threshold: min,
    });
    const critical = input.coverageCritical;
    if (critical === undefined) return rows;
    const check = `critical-path coverage >= ${critical}%`;
    if (!input.criticalPaths?.length) {
      rows.push({
        gate: G3,
        id: 'G3:coverage_critical',
        check,
        passed: null,
        message: `the profile sets coverage_critical ${critical}% but names no critical paths (sluice.critical_paths), so it cannot be computed; judge it from ${r.source}`,
        severity: 'SHOULD',
      });
      return rows;
    }
    const sub = coverageUnder(r, input.projectRoot, input.criticalPaths);
    const pct = percent(sub.hit, sub.found);
    const passed = sub.files > 0 && pct >= critical;
    const message =
      sub.files === 0
        ? `no file in ${r.source} is under the critical paths ${input.criticalPaths.join(', ')}`
        : `critical-path coverage ${pct}% over ${sub.files} files (${sub.hit}/${sub.found} lines) ${passed ? 'meets' : 'is below'} ${critical}%`;
    rows.push({
      gate: G3,
      id: 'G3:coverage_critical',
      check,
      passed,
      message,
      severity: 'MUST',
      ...(sub.files > 0 ? { value: pct, threshold: critical } : {}),
    });
    return rows;
  },
});

export const metricsGatePlugin = gatePlugin(metricsGate);
