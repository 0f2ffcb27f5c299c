import { XMLBuilder } from 'fast-xml-parser';
import type { GateResult } from '../../../core/index.ts';

/**
 * JUnit XML for one gate run (CI systems chart and diff it): one testcase per row, a failing MUST
 * row as <failure>, a failing SHOULD/MAY row and a manual row as <skipped> with the reason, so the
 * suite fails exactly when `sluice gate` exits 1.
 */
/** XML 1.0 cannot carry most C0 controls even escaped; a gate message with one would make the file unreadable. */
const xmlText = (s: string) => s.replace(/[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g, '\uFFFD');

export function gateJunitXml(o: { project: string; phase: string; results: readonly GateResult[]; time: string }): string {
  const cases = o.results.map((r) => {
    const testcase: Record<string, unknown> = {
      '@_classname': xmlText(`sluice.phase-${o.phase}.${r.gate}`),
      '@_name': xmlText(String(r.id ?? r.artifact ?? r.check ?? r.gate)),
    };
    if (r.passed === false && r.severity === 'MUST')
      testcase.failure = { '@_type': xmlText(r.gate), '@_message': xmlText(r.message), '#text': xmlText(r.message) };
    else if (r.passed === false) testcase.skipped = { '@_message': xmlText(`${r.severity}: ${r.message}`) };
    else if (r.passed === null && r.severity !== 'INFO') testcase.skipped = { '@_message': xmlText(`manual: ${r.message}`) };
    return testcase;
  });
  const failures = o.results.filter((r) => r.passed === false && r.severity === 'MUST').length;
  const skipped = cases.filter((c) => 'skipped' in c).length;
  const suite = {
    '@_name': xmlText(`${o.project} phase ${o.phase}`),
    '@_tests': cases.length,
    '@_failures': failures,
    '@_errors': 0,
    '@_skipped': skipped,
    '@_timestamp': o.time,
    testcase: cases,
  };
  const builder = new XMLBuilder({ ignoreAttributes: false, format: true, suppressEmptyNode: true, processEntities: true });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${builder.build({ testsuites: { '@_name': 'sluice', '@_tests': cases.length, '@_failures': failures, testsuite: suite } }) as string}`;
}
