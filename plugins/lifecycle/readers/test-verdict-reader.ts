import { join } from 'pathe';
import * as v from 'valibot';
import { SluiceError, type Host } from '../../../core/index.ts';
import { REPAIR_SCOPES } from '../transition-table.ts';
import { artifactExists, artifactInvalid, checkCitedFiles, readArtifactJson } from './read-artifact.ts';

/**
 * The authoritative test verdict: `{artifact_dir}/verdict.json` (or, from older tools, `test-result.json`
 * with the same fields). `test-report.md` is a derived view and never establishes a TEST_* status.
 *
 *   { "verdict": "TEST_FAIL", "repair_scope": "production",
 *     "failures": [{ "test": "parser handles empty input", "message": "..." }],
 *     "counts": { "passed": 41, "failed": 1, "skipped": 0 },
 *     "evidence": ["test-output.txt"], "summary": "..." }
 *
 * `evidence` lists the files of the evidence package (relative to artifact_dir); each must exist.
 */
export const TEST_VERDICT_FILES = ['verdict.json', 'test-result.json'] as const;
export const TEST_REPORT = 'test-report.md';

const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const TestVerdictSchema = v.pipe(
  v.looseObject({
    verdict: v.picklist(['TEST_PASS', 'TEST_FAIL', 'TEST_BLOCKED'], 'verdict must be TEST_PASS, TEST_FAIL or TEST_BLOCKED'),
    repair_scope: v.optional(v.nullable(v.picklist(REPAIR_SCOPES, `repair_scope must be one of ${REPAIR_SCOPES.join(', ')}`))),
    failures: v.optional(v.array(v.looseObject({ test: v.pipe(v.string(), v.minLength(1)), message: v.optional(v.string()) }))),
    counts: v.optional(v.object({ passed: Count, failed: Count, skipped: v.optional(Count) })),
    blocker: v.optional(v.pipe(v.string(), v.minLength(1))),
    evidence: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
    summary: v.optional(v.string()),
  }),
  v.forward(v.check((r) => r.verdict !== 'TEST_FAIL' || (r.repair_scope ?? null) !== null, 'TEST_FAIL must name its repair_scope'), ['repair_scope']),
  v.forward(v.check((r) => r.verdict !== 'TEST_PASS' || (r.repair_scope ?? null) === null, 'TEST_PASS cannot carry a repair_scope'), ['repair_scope']),
  v.forward(v.check((r) => r.verdict !== 'TEST_PASS' || (r.failures ?? []).length === 0, 'TEST_PASS with failures listed'), ['failures']),
  v.forward(v.check((r) => r.verdict !== 'TEST_BLOCKED' || r.blocker !== undefined, 'TEST_BLOCKED must say what blocks the tests in "blocker"'), ['blocker']),
  v.forward(v.check((r) => !r.counts || (r.verdict === 'TEST_PASS' ? r.counts.failed === 0 : r.verdict === 'TEST_FAIL' ? r.counts.failed > 0 : true), 'counts.failed contradicts the verdict'), ['counts', 'failed']),
);
export type TestVerdict = v.InferOutput<typeof TestVerdictSchema>;

export async function readTestVerdict(host: Host, root: string, artifactDir: string): Promise<TestVerdict & { file: string }> {
  const present: string[] = [];
  for (const name of TEST_VERDICT_FILES) if (await artifactExists(host, root, `${artifactDir}/${name}`)) present.push(`${artifactDir}/${name}`);
  if (present.length === 0) {
    const report = await artifactExists(host, root, `${artifactDir}/${TEST_REPORT}`);
    throw new SluiceError('ARTIFACT_MISSING', {
      file: `${artifactDir}/verdict.json`,
      message: report ? `${TEST_REPORT} is a derived view and never establishes a TEST_* verdict; verdict.json is missing` : 'the test stage has not written verdict.json',
    });
  }
  const verdicts = await Promise.all(present.map((f) => readArtifactJson(host, root, f, TestVerdictSchema)));
  if (verdicts.length === 2 && (verdicts[0].verdict !== verdicts[1].verdict || (verdicts[0].repair_scope ?? null) !== (verdicts[1].repair_scope ?? null))) {
    throw artifactInvalid(present[1], 'verdict', `disagrees with ${present[0]} (${verdicts[1].verdict} vs ${verdicts[0].verdict})`);
  }
  const verdict = verdicts[0];
  await checkCitedFiles(host, join(root, artifactDir), artifactDir, verdict.evidence ?? [], present[0], 'evidence');
  return { ...verdict, file: present[0] };
}
