import * as v from 'valibot';
import type { Host } from '../../../core/index.ts';
import { artifactInvalid, readArtifactText, validateArtifact } from './read-artifact.ts';

/**
 * `{artifact_dir}/review-report.md`. The verdict is the LAST `## Final Result` section (a re-review
 * appends a new one), read as `Key: value` lines, list items or a two-column table:
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
    counts: v.pipe(v.record(v.picklist(SEVERITIES), v.pipe(v.number(), v.integer(), v.minValue(0))), v.check((c) => Object.keys(c).length > 0, 'at least one severity count (Critical, Major, Minor, ...) is required')),
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

export async function readReviewVerdict(host: Host, root: string, artifactDir: string): Promise<ReviewFinalResult & { file: string }> {
  const file = `${artifactDir}/${REVIEW_REPORT}`;
  const text = await readArtifactText(host, root, file);
  return { ...(await parseReviewReport(text, file)), file };
}

export async function parseReviewReport(text: string, file: string): Promise<ReviewFinalResult> {
  const lines = await finalResultLines(text, file);
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

/** The text lines of the last Final Result section, list markers and table pipes already removed. */
async function finalResultLines(text: string, file: string): Promise<string[]> {
  const { default: MarkdownIt } = await import('markdown-it');
  const tokens = new MarkdownIt().parse(text, {});
  let start = -1;
  let level = 0;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type !== 'heading_open') continue;
    const title = plain(tokens[i + 1]?.content ?? '').replace(/[:：]\s*$/, '').trim().toLowerCase();
    if (/^final result\b/.test(title) && (t.tag === 'h2' || t.tag === 'h3')) {
      start = i + 3;
      level = Number(t.tag.slice(1));
    }
  }
  if (start < 0) throw artifactInvalid(file, 'Final Result', 'no "## Final Result" section');
  const lines: string[] = [];
  let row: string[] | undefined;
  for (let i = start; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'heading_open' && Number(t.tag.slice(1)) <= level) break;
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close' && row) {
      if (row.length >= 2) lines.push(`${row[0]}: ${row[1]}`);
      row = undefined;
    } else if (t.type === 'inline') {
      if (row) row.push(plain(t.content));
      else lines.push(...t.content.split('\n').map(plain));
    }
  }
  return lines.filter(Boolean);
}

/** Emphasis, code marks and leading emoji are decoration, not content. */
function plain(s: string): string {
  return s.replace(/[*`]/g, '').replace(/^[^\p{L}\p{N}]+/u, '').trim();
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
  const words = value.replace(/[^\p{L}\p{N}_\s-]/gu, ' ').trim().toUpperCase().replace(/[\s-]+/g, '_');
  const m = /^(PASS|NEEDS_FIXES)(?:_|$)/.exec(words);
  return m ? m[1] : value;
}
