import * as v from 'valibot';
import type { Host } from '../../../core/index.ts';
import { markdownSections, sectionsTitled, type MarkdownSection } from './markdown-sections.ts';
import { isExecutionStart, isPrizmkitFinalResult, parsePrizmkitReview, type PrizmkitReviewResult } from './prizmkit-review-report.ts';
import { artifactInvalid, readArtifact, validateArtifact, type ArtifactFormat, type ArtifactRef } from './read-artifact.ts';

/**
 * `{artifact_dir}/review-report.md`, in one of two forms. PrizmKit's (v1–v4, `render_review_report.py`):
 * see prizmkit-review-report.ts. Or sluice's severity form: the LAST `## Final Result` section (a
 * re-review appends a new one), read as `Key: value` lines, list items or a two-column table:
 *
 *   ## Final Result
 *   - **Verdict**: NEEDS_FIXES
 *   - Critical: 0
 *   - Major: 2
 *   - Minor: 1
 *   - Total: 3
 *
 * Tolerated: `##` or `###`, bold/backticks/emoji around keys and values, `NEEDS FIXES`, a trailing
 * colon or a suffix on the heading (`## Final Result (round 2)`), `Total findings`/`Issues` for Total, `Critical issues` for Critical. Headings in
 * code fences do not count. Required: Verdict, Total and at least one severity count; the counts must
 * add up to Total; PASS allows no critical/high/major finding; NEEDS_FIXES needs at least one finding.
 */
export const REVIEW_REPORT = 'review-report.md';
export const SEVERITIES = ['critical', 'high', 'major', 'medium', 'minor', 'low', 'info'] as const;
const BLOCKING = ['critical', 'high', 'major'] as const;
type Severity = (typeof SEVERITIES)[number];

export const ReviewFinalResultSchema = v.pipe(
  v.object({
    verdict: v.picklist(['PASS', 'NEEDS_FIXES'], 'Verdict must be PASS or NEEDS_FIXES'),
    counts: v.pipe(
      v.record(v.picklist(SEVERITIES), v.pipe(v.number(), v.integer(), v.minValue(0))),
      v.check((c) => Object.keys(c).length > 0, 'at least one severity count (Critical, Major, Minor, ...) is required'),
    ),
    total: v.pipe(v.number(), v.integer(), v.minValue(0)),
  }),
  v.forward(
    v.check((r) => Object.values(r.counts).reduce((a, b) => a + (b ?? 0), 0) === r.total, 'the severity counts do not add up to Total'),
    ['total'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'PASS' || BLOCKING.every((s) => (r.counts[s] ?? 0) === 0), 'PASS with critical, high or major findings'),
    ['verdict'],
  ),
  v.forward(
    v.check((r) => r.verdict !== 'NEEDS_FIXES' || r.total > 0, 'NEEDS_FIXES with no findings'),
    ['verdict'],
  ),
);
export type ReviewFinalResult = v.InferOutput<typeof ReviewFinalResultSchema>;

export type ReviewVerdict = (ReviewFinalResult & { format: 'sluice' }) | (PrizmkitReviewResult & { format: Exclude<ArtifactFormat, 'sluice'> });

export async function readReviewVerdict(host: Host, root: string, artifactDir: string): Promise<ReviewVerdict & { file: string; artifacts: ArtifactRef[] }> {
  const file = `${artifactDir}/${REVIEW_REPORT}`;
  const { text, sha256 } = await readArtifact(host, root, file);
  const verdict = await parseReviewReport(text, file);
  return { ...verdict, file, artifacts: [{ file, sha256, format: verdict.format }] };
}

/** PrizmKit's rendered report when it has an execution status or renderer-only keys; otherwise sluice's severity form. */
export async function parseReviewReport(text: string, file: string): Promise<ReviewVerdict> {
  const sections = await markdownSections(text);
  const finals = sectionsTitled(sections, 'final result');
  const last = finals[finals.length - 1];
  if (sections.some(isExecutionStart) || (last && isPrizmkitFinalResult(last.lines))) return parsePrizmkitReview(sections, file);
  if (!last) throw artifactInvalid(file, 'Final Result', 'no "## Final Result" section');
  return { ...parseSeverityForm(sectionLines(sections, last)), format: 'sluice' };

  function parseSeverityForm(lines: string[]): ReviewFinalResult {
    const raw: { verdict?: string; total?: number; counts: Partial<Record<Severity, number>> } = { counts: {} };
    const seen = new Set<string>();
    for (const line of lines) {
      const kv = /^([\p{L}][\p{L} _-]*?)\s*[:：]\s*(.+)$/u.exec(line);
      if (!kv) continue;
      const key = classifyKey(kv[1]);
      if (!key) continue;
      if (seen.has(key)) throw artifactInvalid(file, key === 'verdict' ? 'Verdict' : key, `${key} appears twice in the final result`);
      seen.add(key);
      const value = kv[2].trim();
      if (key === 'verdict') raw.verdict = normalizeVerdict(value);
      else {
        const n = /^\d+/.exec(value);
        if (!n) throw artifactInvalid(file, key, `${key} must be a number, got ${JSON.stringify(value)}`);
        if (key === 'total') raw.total = Number(n[0]);
        else raw.counts[key] = Number(n[0]);
      }
    }
    if (raw.verdict === undefined) throw artifactInvalid(file, 'Verdict', 'the final result has no Verdict line');
    if (raw.total === undefined) throw artifactInvalid(file, 'Total', 'the final result has no Total line');
    return validateArtifact(ReviewFinalResultSchema, raw, file);
  }
}

/** A section's lines plus those of its subsections (deeper headings), up to the next heading of its level or above. */
function sectionLines(sections: MarkdownSection[], start: MarkdownSection): string[] {
  const i = sections.indexOf(start);
  const lines = [...start.lines];
  for (const s of sections.slice(i + 1)) {
    if (s.level <= start.level) break;
    lines.push(...s.lines);
  }
  return lines;
}

function classifyKey(key: string): Severity | 'verdict' | 'total' | undefined {
  const k = key.toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
  if (k === 'verdict' || k === 'final verdict') return 'verdict';
  if (['total', 'total findings', 'total issues', 'findings', 'issues'].includes(k)) return 'total';
  const [first, ...rest] = k.split(' ');
  const tail = rest.join(' ');
  const severity = SEVERITIES.find((s) => s === first);
  if (severity && (tail === '' || tail === 'findings' || tail === 'issues')) return severity;
  return undefined;
}

/** `✅ **PASS**`, `needs fixes`, `NEEDS-FIXES (2 major)` → PASS / NEEDS_FIXES; anything else is kept for the error. */
function normalizeVerdict(value: string): string {
  const words = value
    .replace(/[^\p{L}\p{N}_\s-]/gu, ' ')
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, '_');
  const m = /^(PASS|NEEDS_FIXES)(?:_|$)/.exec(words);
  return m ? m[1] : value;
}
