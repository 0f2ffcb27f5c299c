import { join } from 'pathe';
import * as v from 'valibot';
import { SluiceError, type Host } from '../../../core/index.ts';
import { REPAIR_SCOPES, type RepairScope } from '../transition-table.ts';
import { findEvidencePackage, checkEvidenceBinding, isV1Verdict, readEvidencePackage } from './evidence-package-reader.ts';
import { keyValues, markdownSections } from './markdown-sections.ts';
import { checkAgreement, parsePrizmkitTestResult, readTestReportFacts, testResultFormat } from './prizmkit-test-result.ts';
import {
  artifactExists,
  artifactInvalid,
  checkCitedFiles,
  parseArtifactJson,
  readArtifact,
  readArtifactJson,
  type ArtifactFormat,
  type ArtifactRef,
} from './read-artifact.ts';

/**
 * sluice's own test verdict: `{artifact_dir}/verdict.json` (or `test-result.json` with the same fields).
 * Here `test-report.md` is a derived view and never establishes a TEST_* status. PrizmKit's formats:
 * see `readTestEvidence` below.
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
  v.forward(
    v.check((r) => r.verdict !== 'TEST_FAIL' || (r.repair_scope ?? null) !== null, 'TEST_FAIL must name its repair_scope'),
    ['repair_scope'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'TEST_PASS' || (r.repair_scope ?? null) === null, 'TEST_PASS cannot carry a repair_scope'),
    ['repair_scope'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'TEST_PASS' || (r.failures ?? []).length === 0, 'TEST_PASS with failures listed'),
    ['failures'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'TEST_BLOCKED' || r.blocker !== undefined, 'TEST_BLOCKED must say what blocks the tests in "blocker"'),
    ['blocker'],
  ),
  v.forward(
    v.check(
      (r) => !r.counts || (r.verdict === 'TEST_PASS' ? r.counts.failed === 0 : r.verdict === 'TEST_FAIL' ? r.counts.failed > 0 : true),
      'counts.failed contradicts the verdict',
    ),
    ['counts', 'failed'],
  ),
);
export type TestVerdict = v.InferOutput<typeof TestVerdictSchema>;

export async function readTestVerdict(host: Host, root: string, artifactDir: string): Promise<TestVerdict & { file: string }> {
  const present: string[] = [];
  for (const name of TEST_VERDICT_FILES) if (await artifactExists(host, root, `${artifactDir}/${name}`)) present.push(`${artifactDir}/${name}`);
  if (present.length === 0) {
    const report = await artifactExists(host, root, `${artifactDir}/${TEST_REPORT}`);
    throw new SluiceError('ARTIFACT_MISSING', {
      file: `${artifactDir}/verdict.json`,
      message: report
        ? `${TEST_REPORT} alone never establishes a TEST_* verdict (a derived view here); verdict.json (or PrizmKit's test-result.json) is missing`
        : "the test stage has not written verdict.json (or PrizmKit's test-result.json)",
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

/** What the test stage established, whichever format it wrote; the lifecycle event is built from it. */
export interface TestEvidence {
  verdict: 'TEST_PASS' | 'TEST_PASS_PRODUCTION_CHANGED' | 'TEST_FAIL' | 'TEST_NEEDS_FIXES' | 'TEST_BLOCKED';
  repairScope: RepairScope | null;
  failureCount: number;
  /** The authoritative file the verdict was read from. */
  file: string;
  format: ArtifactFormat;
  artifacts: ArtifactRef[];
}

type JsonKind = 'prizmkit-result' | 'prizmkit-v1' | 'sluice';
const kindOf = (raw: unknown): JsonKind =>
  raw && typeof raw === 'object' && 'result' in raw && !('verdict' in raw) ? 'prizmkit-result' : isV1Verdict(raw) ? 'prizmkit-v1' : 'sluice';

/**
 * The test stage's verdict in any format it may be written in: PrizmKit v2–v4's `test-result.json`
 * with its agreeing `test-report.md`, PrizmKit v1's evidence package, or sluice's `verdict.json`.
 * A pass must come with something sluice can check; a bare `{"verdict":"TEST_PASS"}` is refused.
 */
export async function readTestEvidence(host: Host, root: string, artifactDir: string): Promise<TestEvidence> {
  const present: { file: string; kind: JsonKind }[] = [];
  for (const name of TEST_VERDICT_FILES) {
    const file = `${artifactDir}/${name}`;
    if (await artifactExists(host, root, file)) present.push({ file, kind: kindOf(parseArtifactJson((await readArtifact(host, root, file)).text, file)) });
  }
  const kinds = new Set(present.map((p) => p.kind));
  if (kinds.size > 1) throw artifactInvalid(present[1].file, undefined, `is written in a different format than ${present[0].file}; keep one test verdict`);
  const kind = present[0]?.kind;
  if (kind === 'prizmkit-result') return readPrizmkitTest(host, root, artifactDir, present[0].file);
  if (kind === 'prizmkit-v1' || kind === undefined) {
    const v1 = await readV1Test(host, root, artifactDir);
    if (v1) return v1;
  }
  const t = await readTestVerdict(host, root, artifactDir);
  if (t.verdict === 'TEST_PASS' && (t.evidence ?? []).length === 0) {
    throw artifactInvalid(t.file, 'evidence', 'TEST_PASS without evidence sluice can check: list the test output files in "evidence"');
  }
  const artifacts: ArtifactRef[] = [];
  for (const p of present) artifacts.push({ file: p.file, sha256: (await readArtifact(host, root, p.file)).sha256, format: 'sluice' });
  const verdict = t.verdict === 'TEST_FAIL' ? 'TEST_FAIL' : t.verdict;
  return { verdict, repairScope: t.repair_scope ?? null, failureCount: t.failures?.length ?? 0, file: t.file, format: 'sluice', artifacts };
}

async function readPrizmkitTest(host: Host, root: string, artifactDir: string, file: string): Promise<TestEvidence> {
  const json = await readArtifact(host, root, file);
  const result = parsePrizmkitTestResult(parseArtifactJson(json.text, file), file);
  const reportFile = `${artifactDir}/${TEST_REPORT}`;
  if (!(await artifactExists(host, root, reportFile)))
    throw new SluiceError('ARTIFACT_MISSING', { file: reportFile, message: `${file} needs its test-report.md: the two must exist and agree` });
  const report = await readArtifact(host, root, reportFile);
  checkAgreement(result, await readTestReportFacts(report.text, reportFile), reportFile);
  const format = testResultFormat(result);
  const artifacts = [
    { file, sha256: json.sha256, format },
    { file: reportFile, sha256: report.sha256, format },
  ];
  const base = { file, format, artifacts, failureCount: result.unresolved_items.length };
  if (result.result === 'TEST_PASS') {
    const changed = result.production_changed || result.review_required === true;
    return { ...base, verdict: changed ? 'TEST_PASS_PRODUCTION_CHANGED' : 'TEST_PASS', repairScope: changed ? 'production' : null };
  }
  if (result.result === 'TEST_NEEDS_FIXES') return { ...base, verdict: 'TEST_NEEDS_FIXES', repairScope: 'production' };
  return { ...base, verdict: 'TEST_BLOCKED', repairScope: null };
}

/** v1: the evidence package is the authority; a pass must still be about this HEAD and this diff. */
async function readV1Test(host: Host, root: string, artifactDir: string): Promise<TestEvidence | null> {
  const id = await findEvidencePackage(host, root, artifactDir);
  if (id === null) return null;
  const pkg = await readEvidencePackage(host, root, id);
  const artifacts = [...pkg.artifacts];
  const local = `${artifactDir}/verdict.json`;
  if (await artifactExists(host, root, local)) {
    const mine = await readArtifact(host, root, local);
    if (mine.sha256 !== pkg.artifacts[0].sha256) throw artifactInvalid(local, 'verdict', `differs from the evidence package's ${pkg.artifacts[0].file}`);
    artifacts.push({ file: local, sha256: mine.sha256, format: 'prizmkit-v1' });
  }
  const reportFile = `${artifactDir}/${TEST_REPORT}`;
  if (await artifactExists(host, root, reportFile)) {
    const report = await readArtifact(host, root, reportFile);
    for (const s of await markdownSections(report.text)) {
      const said = keyValues(s.lines).get('verdict')?.[0];
      if (said !== undefined && said !== pkg.verdict.verdict)
        throw artifactInvalid(reportFile, 'Verdict', `the derived report says ${said}, the evidence package says ${pkg.verdict.verdict}`);
    }
    artifacts.push({ file: reportFile, sha256: report.sha256, format: 'prizmkit-v1' });
  }
  if (pkg.verdict.verdict === 'TEST_PASS') await checkEvidenceBinding(host, root, pkg);
  const v = pkg.verdict;
  const common = { file: `${pkg.dir}/verdict.json`, format: 'prizmkit-v1' as const, artifacts };
  if (v.verdict === 'TEST_FAIL') return { ...common, verdict: 'TEST_FAIL', repairScope: 'unknown', failureCount: v.reproduced_failures.length };
  return { ...common, verdict: v.verdict, repairScope: null, failureCount: 0 };
}
