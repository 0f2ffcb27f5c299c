import * as v from 'valibot';
import { artifactInvalid, validateArtifact, type ArtifactFormat } from './read-artifact.ts';
import { keyValues, type MarkdownSection } from './markdown-sections.ts';

/**
 * `review-report.md` as PrizmKit's `render_review_report.py` writes it (v1–v4): one execution per file,
 * started by `## Status: IN_PROGRESS`, progress sections appended, and exactly one terminal
 *
 *   ## Final Result
 *   - Verdict: PASS | NEEDS_FIXES
 *   - Main Review Rounds: 1..10
 *   - Accepted Findings / Fixed Findings / Rejected Findings / Unresolved Findings: counts
 *   - Summary: text
 *
 * with nothing after it. A new execution starts over (the last `Status: IN_PROGRESS` heading begins
 * the current one); an execution without its Final Result is incomplete.
 */
const Count = v.pipe(v.number(), v.integer(), v.minValue(0));

export const PrizmkitReviewResultSchema = v.pipe(
  v.object({
    verdict: v.picklist(['PASS', 'NEEDS_FIXES'], 'Verdict must be PASS or NEEDS_FIXES'),
    main_review_rounds: v.pipe(
      Count,
      v.minValue(1, 'Main Review Rounds must be 1 to 10'),
      v.maxValue(10, 'Main Review Rounds must be 1 to 10 (the review loop stops at ten rounds)'),
    ),
    accepted_findings: Count,
    fixed_findings: Count,
    rejected_findings: Count,
    unresolved_findings: Count,
    summary: v.pipe(v.string(), v.minLength(1, 'Summary is empty')),
  }),
  v.forward(
    v.check((r) => r.fixed_findings <= r.accepted_findings, 'Fixed Findings exceeds Accepted Findings'),
    ['fixed_findings'],
  ),
  v.forward(
    v.check(
      (r) => r.verdict !== 'PASS' || (r.unresolved_findings === 0 && r.fixed_findings === r.accepted_findings),
      'PASS needs every accepted finding fixed and no unresolved finding',
    ),
    ['verdict'],
  ),
  v.forward(
    v.check(
      (r) => r.verdict !== 'NEEDS_FIXES' || r.unresolved_findings > 0 || r.fixed_findings < r.accepted_findings,
      'NEEDS_FIXES needs an unfixed accepted or an unresolved finding',
    ),
    ['verdict'],
  ),
);
export type PrizmkitReviewResult = v.InferOutput<typeof PrizmkitReviewResultSchema>;

const FINAL_KEYS: Record<string, keyof PrizmkitReviewResult> = {
  verdict: 'verdict',
  'main review rounds': 'main_review_rounds',
  'accepted findings': 'accepted_findings',
  'fixed findings': 'fixed_findings',
  'rejected findings': 'rejected_findings',
  'unresolved findings': 'unresolved_findings',
  summary: 'summary',
};

/** The Final Result keys only PrizmKit's renderer writes; any one of them selects this reader. */
export const isPrizmkitFinalResult = (lines: readonly string[]) =>
  [...keyValues(lines).keys()].some((k) => k !== 'verdict' && k !== 'summary' && k in FINAL_KEYS);
export const isExecutionStart = (s: MarkdownSection) => s.level === 2 && /^status\s*[:：]\s*in_progress$/i.test(s.title);

export function parsePrizmkitReview(sections: MarkdownSection[], file: string): PrizmkitReviewResult & { format: Exclude<ArtifactFormat, 'sluice'> } {
  const starts = sections.map((s, i) => (isExecutionStart(s) ? i : -1)).filter((i) => i >= 0);
  const current = starts.length > 0 ? sections.slice(starts[starts.length - 1] + 1) : sections;
  const finals = current.filter((s) => s.level === 2 && /^final result$/i.test(s.title));
  if (finals.length === 0) throw artifactInvalid(file, 'Final Result', 'the review execution is IN_PROGRESS: it has no "## Final Result" yet');
  if (finals.length > 1) throw artifactInvalid(file, 'Final Result', `the review execution has ${finals.length} Final Result sections; exactly one ends it`);
  const final = finals[0];
  if (current[current.length - 1] !== final)
    throw artifactInvalid(
      file,
      'Final Result',
      `"## ${current[current.length - 1].title}" (line ${current[current.length - 1].line}) comes after the Final Result; nothing may follow it`,
    );
  const other = final.blocks.filter((b) => b !== 'bullet_list');
  if (other.length > 0)
    throw artifactInvalid(file, 'Final Result', `the Final Result holds a ${other[0].replace(/_/g, ' ')} besides its list; nothing may follow the list`);

  const raw: Record<string, unknown> = {};
  for (const [key, values] of keyValues(final.lines)) {
    const field = FINAL_KEYS[key];
    if (!field) continue;
    if (values.length > 1) throw artifactInvalid(file, titleOf(field), `${titleOf(field)} appears twice in the Final Result`);
    raw[field] = field === 'verdict' || field === 'summary' ? values[0] : count(values[0], file, field);
  }
  for (const field of Object.values(FINAL_KEYS))
    if (!(field in raw)) throw artifactInvalid(file, titleOf(field), `the Final Result has no "${titleOf(field)}" line`);
  const result = validateArtifact(PrizmkitReviewResultSchema, raw, file);
  checkRounds(current, result, file);
  return { ...result, format: formatOf(sections) };
}

/** Every Main Review Round: numbered 1–10 once each, Findings = Accepted + Rejected + Unresolved; the count matches the Final Result. */
function checkRounds(sections: MarkdownSection[], result: PrizmkitReviewResult, file: string): void {
  const seen = new Set<number>();
  for (const s of sections) {
    const main = /^main review round (\d+)$/i.exec(s.title);
    const independent = /^independent review round (\d+)$/i.exec(s.title);
    if (!main && !independent) continue;
    const n = Number((main ?? independent)![1]);
    const kv = keyValues(s.lines);
    const get = (k: string) => count(kv.get(k)?.[0], file, `${s.title}.${k}`);
    const [total, name] = main ? [get('findings'), 'Findings'] : [get('corrections'), 'Corrections'];
    if (get('accepted') + get('rejected') + get('unresolved') !== total)
      throw artifactInvalid(file, s.title, `Accepted + Rejected + Unresolved must equal ${name} (line ${s.line})`);
    if (!main) continue;
    if (n < 1 || n > 10) throw artifactInvalid(file, s.title, `review rounds are numbered 1 to 10 (line ${s.line})`);
    if (seen.has(n)) throw artifactInvalid(file, s.title, `round ${n} is recorded twice`);
    seen.add(n);
  }
  if (seen.size > 0 && seen.size !== result.main_review_rounds) {
    throw artifactInvalid(
      file,
      'Main Review Rounds',
      `the Final Result says ${result.main_review_rounds} round${result.main_review_rounds === 1 ? '' : 's'}, the report records ${seen.size}`,
    );
  }
}

function count(value: string | undefined, file: string, field: string): number {
  if (value === undefined) throw artifactInvalid(file, field, `${field} is missing`);
  if (!/^\d+$/.test(value)) throw artifactInvalid(file, field, `${field} must be a whole number, got ${JSON.stringify(value)}`);
  return Number(value);
}

const titleOf = (field: string) =>
  Object.entries(FINAL_KEYS)
    .find(([, f]) => f === field)![0]
    .replace(/\b\w/g, (c) => c.toUpperCase());

/** v4 adds the Review Scope section and Capability Basis lines; v2 (and v3, the same renderer) the independent review. */
function formatOf(sections: MarkdownSection[]): Exclude<ArtifactFormat, 'sluice'> {
  if (sections.some((s) => /^review scope$/i.test(s.title) || keyValues(s.lines).has('capability basis'))) return 'prizmkit-v4';
  if (sections.some((s) => /^independent (review|adjudication)/i.test(s.title))) return 'prizmkit-v2';
  return 'prizmkit-v1';
}
