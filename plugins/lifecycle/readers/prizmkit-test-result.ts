import * as v from 'valibot';
import { artifactInvalid, validateArtifact, type ArtifactFormat } from './read-artifact.ts';
import { keyValues, markdownSections, sectionsTitled } from './markdown-sections.ts';

/**
 * PrizmKit v2–v4's test stage writes two files that must agree: `test-result.json` (the terminal
 * projection) and `test-report.md` (the human report, with `## Final Result` / `- Result: TEST_*`).
 *
 *   { "schema_version": 1, "result": "TEST_PASS", "report": "test-report.md", "main_review_rounds": 1,
 *     "independent_review": { "status": "downgraded", "responses": 0, "downgrade_reason": "...", "final_state_rechecked": false },
 *     "repair_rounds": 0, "production_changed": false, "unresolved_items": [] }
 *
 * v2 and v3 also carry `review_required` and `review_scope` (`delta` exactly when review is required).
 */
export const PRIZMKIT_TEST_RESULTS = ['TEST_PASS', 'TEST_NEEDS_FIXES', 'TEST_BLOCKED'] as const;

const Item = v.pipe(v.string(), v.trim(), v.minLength(1, 'an unresolved item is empty'));

const IndependentReviewSchema = v.pipe(
  v.looseObject({
    status: v.picklist(['completed', 'downgraded', 'not_applicable'], 'independent_review.status must be completed, downgraded or not_applicable'),
    responses: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(5, 'at most 5 independent reviewer responses')),
    downgrade_reason: v.nullable(v.string()),
    final_state_rechecked: v.boolean(),
  }),
  v.check(
    (r) => r.status !== 'completed' || (r.responses >= 1 && r.downgrade_reason === null && r.final_state_rechecked),
    'completed needs 1 to 5 responses, no downgrade_reason and final_state_rechecked=true',
  ),
  v.check(
    (r) => r.status !== 'downgraded' || (r.responses === 0 && (r.downgrade_reason ?? '').trim() !== '' && !r.final_state_rechecked),
    'downgraded needs 0 responses, a downgrade_reason and final_state_rechecked=false',
  ),
  v.check(
    (r) => r.status !== 'not_applicable' || (r.responses === 0 && r.downgrade_reason === null && !r.final_state_rechecked),
    'not_applicable needs 0 responses, no downgrade_reason and final_state_rechecked=false',
  ),
);

export const PrizmkitTestResultSchema = v.pipe(
  v.looseObject({
    schema_version: v.literal(1, 'schema_version must be 1'),
    result: v.picklist(PRIZMKIT_TEST_RESULTS, 'result must be TEST_PASS, TEST_NEEDS_FIXES or TEST_BLOCKED'),
    report: v.literal('test-report.md', 'report must name the sibling test-report.md'),
    main_review_rounds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(10, 'main_review_rounds must be 0 to 10')),
    independent_review: IndependentReviewSchema,
    repair_rounds: v.pipe(v.number(), v.integer(), v.minValue(0), v.maxValue(3, 'repair_rounds must be 0 to 3')),
    production_changed: v.boolean('production_changed must be true or false'),
    review_required: v.optional(v.boolean()),
    review_scope: v.optional(v.nullable(v.literal('delta'))),
    unresolved_items: v.array(Item),
  }),
  v.forward(
    v.check((r) => r.result !== 'TEST_PASS' || r.unresolved_items.length === 0, 'TEST_PASS with unresolved items'),
    ['unresolved_items'],
  ),
  v.forward(
    v.check((r) => r.result !== 'TEST_PASS' || r.main_review_rounds >= 1, 'TEST_PASS needs at least one completed review round'),
    ['main_review_rounds'],
  ),
  v.forward(
    v.check(
      (r) => r.review_required === undefined || (r.review_scope ?? null) === (r.review_required ? 'delta' : null),
      'review_scope is delta exactly when review_required is true',
    ),
    ['review_scope'],
  ),
);
export type PrizmkitTestResult = v.InferOutput<typeof PrizmkitTestResultSchema>;

/** v2/v3 name the delta review it needs; v4 dropped those keys. v4 also requires a non-pass to list what remains. */
export function testResultFormat(r: PrizmkitTestResult): ArtifactFormat {
  return 'review_required' in r || 'review_scope' in r ? 'prizmkit-v2' : 'prizmkit-v4';
}

export function checkTestResult(r: PrizmkitTestResult, file: string): void {
  if (testResultFormat(r) === 'prizmkit-v4' && r.result !== 'TEST_PASS' && r.unresolved_items.length === 0) {
    throw artifactInvalid(file, 'unresolved_items', `${r.result} must list at least one unresolved correction or blocker`);
  }
}

export interface TestReportFacts {
  result: string;
  productionChanged: boolean | undefined;
  /** Whether the report says something remains unresolved; undefined when it does not say. */
  hasUnresolved: boolean | undefined;
}

/** What `test-report.md` states: its one Final Result, whether production changed, and what remains. */
export async function readTestReportFacts(text: string, file: string): Promise<TestReportFacts> {
  const sections = await markdownSections(text);
  const finals = sectionsTitled(sections, 'final result', [2]);
  if (finals.length === 0) throw artifactInvalid(file, 'Final Result', 'no "## Final Result" section with "- Result: TEST_*"');
  if (finals.length > 1) throw artifactInvalid(file, 'Final Result', `${finals.length} Final Result sections; a report has exactly one`);
  const results = keyValues(finals[0].lines).get('result') ?? [];
  if (results.length !== 1)
    throw artifactInvalid(file, 'Result', results.length === 0 ? 'the Final Result has no "- Result:" line' : '"- Result:" appears twice');
  const result = results[0].toUpperCase();
  if (!(PRIZMKIT_TEST_RESULTS as readonly string[]).includes(result))
    throw artifactInvalid(file, 'Result', `Result must be TEST_PASS, TEST_NEEDS_FIXES or TEST_BLOCKED, got ${JSON.stringify(results[0])}`);

  let productionChanged: boolean | undefined;
  let hasUnresolved: boolean | undefined;
  for (const s of sections) {
    const kv = keyValues(s.lines);
    const changed = kv.get('production changed during test')?.[0];
    if (changed !== undefined) {
      // Exactly one answer: the template's unfilled "yes / no" is neither.
      if (!/^(yes|no)(\s*[.,;:(—–-].*)?$/i.test(changed) || /^(yes|no)\s*\/\s*(yes|no)/i.test(changed))
        throw artifactInvalid(file, 'Production changed during test', `must be yes or no, got ${JSON.stringify(changed)}`);
      productionChanged = /^yes/i.test(changed);
    }
    if (/^remaining risks and unresolved items/i.test(s.title)) {
      const line = kv.get('testing domain unresolved items')?.[0] ?? (kv.size === 0 ? s.lines[0] : undefined);
      if (line !== undefined) hasUnresolved = !/^none\b/i.test(line);
    }
  }
  return { result, productionChanged, hasUnresolved };
}

/** The report and the JSON must say the same thing (PrizmKit: "Report and JSON agree"). */
export function checkAgreement(json: PrizmkitTestResult, report: TestReportFacts, reportFile: string): void {
  if (report.result !== json.result) throw artifactInvalid(reportFile, 'Result', `says ${report.result}, test-result.json says ${json.result}`);
  if (report.productionChanged === undefined)
    throw artifactInvalid(reportFile, 'Production changed during test', 'the report does not say whether production code changed during the test stage');
  if (report.productionChanged !== json.production_changed) {
    throw artifactInvalid(
      reportFile,
      'Production changed during test',
      `says ${report.productionChanged ? 'yes' : 'no'}, test-result.json says production_changed=${json.production_changed}`,
    );
  }
  if (report.hasUnresolved !== undefined && report.hasUnresolved !== json.unresolved_items.length > 0) {
    throw artifactInvalid(
      reportFile,
      'Testing-domain unresolved items',
      `the report ${report.hasUnresolved ? 'lists unresolved items' : 'says none remain'}, test-result.json lists ${json.unresolved_items.length}`,
    );
  }
}

export function parsePrizmkitTestResult(raw: unknown, file: string): PrizmkitTestResult {
  const r = validateArtifact(PrizmkitTestResultSchema, raw, file);
  checkTestResult(r, file);
  return r;
}
