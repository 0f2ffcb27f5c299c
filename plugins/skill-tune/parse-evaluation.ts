import * as v from 'valibot';
import { compositeScore, DIMENSIONS, isScore, type DimensionScores } from './evaluation-scoring.ts';
import { chainScoresOf, fromMaestroShape, maestroSuggestionText } from './maestro-evaluation.ts';

/**
 * Reads the evaluator's answer. The strict path is a JSON object with the five dimensions
 * (see skills/skill-tune/evaluate.md); keys are matched case-insensitively and a dimension may be
 * a number or `{ "score": n, ... }`. maestro's shape (dimensions as an array, `composite_score`,
 * `chain_scores`) is read too. Whatever total the evaluator states is ignored; a dimension that is
 * missing, null or out of range means no score at all.
 */
export type Priority = 'high' | 'medium' | 'low';
export interface Suggestion {
  priority: Priority;
  text: string;
  target?: string;
}

export interface SkillVerdict {
  score: number;
  /** Null when the evaluator gave only a per-skill total (maestro's `chain_scores`). */
  dimensions: DimensionScores | null;
  weaknesses: string[];
  suggestions: Suggestion[];
}

export type ScoreSource = 'json' | 'heuristic-dimensions' | 'heuristic-overall';

export interface ParsedEvaluation {
  source: ScoreSource;
  score: number;
  /** Never null from this parser; `heuristic-overall` (a stated total, no dimensions) is only in runs of older versions. */
  dimensions: DimensionScores | null;
  strengths: string[];
  weaknesses: string[];
  suggestions: Suggestion[];
  /** Chain mode: one verdict per skill id, when the evaluator gave them. */
  skills: Record<string, SkillVerdict>;
  summary?: string;
}

const Score = v.pipe(v.number('a score must be a number'), v.minValue(0, 'a score must be 0–100'), v.maxValue(100, 'a score must be 0–100'));
const DimensionValue = v.union(
  [
    Score,
    v.pipe(
      v.looseObject({ score: Score }),
      v.transform((o) => o.score),
    ),
  ],
  'a dimension must be a 0–100 number or {"score": n}',
);
const Dimensions = v.object(Object.fromEntries(DIMENSIONS.map((d) => [d, DimensionValue])) as Record<(typeof DIMENSIONS)[number], typeof DimensionValue>);
const SuggestionObject = v.looseObject({
  priority: v.optional(v.union([v.string(), v.number()])),
  description: v.optional(v.string()),
  suggestion: v.optional(v.string()),
  change: v.optional(v.string()),
  text: v.optional(v.string()),
  target: v.optional(v.string()),
  file: v.optional(v.string()),
  target_file: v.optional(v.string()),
  rationale: v.optional(v.string()),
  code_snippet: v.optional(v.string()),
});
const SuggestionInput = v.union([v.string(), SuggestionObject]);
const TextList = v.optional(v.array(v.union([v.string(), v.looseObject({})])), []);
const Verdict = v.looseObject({
  dimensions: v.pipe(v.record(v.string(), v.unknown()), v.transform(lowerKeys), Dimensions),
  strengths: TextList,
  weaknesses: TextList,
  suggestions: v.optional(v.array(SuggestionInput), []),
});
const EvaluationJson = v.looseObject({
  ...Verdict.entries,
  summary: v.optional(v.string()),
  skills: v.optional(v.record(v.string(), Verdict)),
  chain_scores: v.optional(v.pipe(v.unknown(), v.transform(chainScoresOf))),
});

/**
 * `shaped`: some JSON in the answer looked like an evaluation (it had `dimensions`) but was invalid.
 * Then the answer gives no score: the heuristics must not take a stated total instead.
 */
export type ParseResult = { ok: true; evaluation: ParsedEvaluation } | { ok: false; error: string; shaped: boolean };

/**
 * The strict path: the JSON object (bare, fenced, or embedded in prose) that matches the evaluation
 * format. Exactly one answer may be given: two valid evaluations that disagree (a real one and a
 * quoted or injected one, say) are no answer at all, never "the last one wins". An echo of the
 * all-zero answer template is not an answer and is ignored.
 */
export function parseEvaluationJson(text: string, json?: unknown): ParseResult {
  const structured = json !== undefined && json !== null && typeof json === 'object' && !Array.isArray(json);
  const candidates = structured ? [json, ...jsonCandidates(text)] : jsonCandidates(text);
  if (candidates.length === 0) return { ok: false, error: 'no JSON object found in the evaluator output', shaped: false };
  let firstError = '';
  let shaped = false;
  const valid = new Map<string, ParsedEvaluation>();
  for (const candidate of candidates) {
    const parsed = v.safeParse(EvaluationJson, fromMaestroShape(candidate as Record<string, unknown>));
    if (parsed.success) {
      const evaluation = toEvaluation(parsed.output);
      valid.set(JSON.stringify(evaluation), evaluation);
      continue;
    }
    if ('dimensions' in (candidate as object)) shaped = true;
    if (!firstError) {
      const issue = parsed.issues[0];
      const path = v.getDotPath(issue);
      firstError = `${path ? `field ${path}: ` : ''}${issue.message}`;
    }
  }
  const all = [...valid.values()];
  const real = all.filter((e) => !isBlankTemplate(e));
  const answers = real.length ? real : all;
  if (answers.length > 1) {
    return {
      ok: false,
      error: `the answer holds ${answers.length} different evaluations (scores ${answers.map((e) => e.score).join(', ')}); none is taken`,
      shaped: true,
    };
  }
  if (answers.length === 1) return { ok: true, evaluation: answers[0] };
  return { ok: false, error: `evaluator JSON does not match the format: ${firstError}`, shaped };
}

const isBlankTemplate = (e: ParsedEvaluation) => e.dimensions !== null && DIMENSIONS.every((d) => e.dimensions![d] === 0);

function toEvaluation(o: v.InferOutput<typeof EvaluationJson>): ParsedEvaluation {
  const dimensions = o.dimensions as DimensionScores;
  const skills: Record<string, SkillVerdict> = {};
  for (const [id, s] of Object.entries(o.skills ?? {})) {
    const d = s.dimensions as DimensionScores;
    skills[id] = { score: compositeScore(d), dimensions: d, weaknesses: texts(s.weaknesses), suggestions: suggestions(s.suggestions) };
  }
  for (const [id, score] of Object.entries(o.chain_scores ?? {})) {
    skills[id] ??= { score, dimensions: null, weaknesses: [], suggestions: [] };
  }
  return {
    source: 'json',
    score: compositeScore(dimensions),
    dimensions,
    strengths: texts(o.strengths),
    weaknesses: texts(o.weaknesses),
    suggestions: suggestions(o.suggestions),
    skills,
    ...(o.summary ? { summary: o.summary } : {}),
  };
}

function lowerKeys(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).map(([k, val]) => [k.trim().toLowerCase(), val]));
}

function texts(list: (string | Record<string, unknown>)[]): string[] {
  return list.map((x) => (typeof x === 'string' ? x : String(x.text ?? x.description ?? JSON.stringify(x)))).filter((s) => s.trim() !== '');
}

const PRIORITY_ORDER: Record<Priority, number> = { high: 0, medium: 1, low: 2 };

function priorityOf(p: string | number | undefined): Priority {
  if (typeof p === 'number') return p <= 1 ? 'high' : p === 2 ? 'medium' : 'low';
  const s = (p ?? '').toLowerCase();
  if (/^(high|critical|p0|p1|must)/.test(s)) return 'high';
  if (/^(low|p3|p4|minor|nice|may)/.test(s)) return 'low';
  return 'medium';
}

/** Normalised and ordered: high before medium before low, keeping the evaluator's order inside each. */
function suggestions(list: v.InferOutput<typeof SuggestionInput>[]): Suggestion[] {
  const out: Suggestion[] = [];
  for (const s of list) {
    if (typeof s === 'string') {
      if (s.trim()) out.push({ priority: 'medium', text: s.trim() });
      continue;
    }
    const base = (s.description ?? s.suggestion ?? s.change ?? s.text ?? '').trim();
    if (!base) continue;
    const text = maestroSuggestionText(s, base);
    const target = s.target ?? s.file ?? s.target_file;
    out.push({ priority: priorityOf(s.priority), text, ...(target ? { target } : {}) });
  }
  return out
    .map((s, i) => ({ s, i }))
    .sort((a, b) => PRIORITY_ORDER[a.s.priority] - PRIORITY_ORDER[b.s.priority] || a.i - b.i)
    .map((x) => x.s);
}

/**
 * The top-level JSON objects of the text, in order: each balanced `{...}` span (string-aware) that
 * parses, with the spans nested inside it skipped (a per-skill verdict inside a chain answer is
 * part of that answer, not a second one). Capped so a hostile answer cannot make this slow.
 */
export function jsonCandidates(text: string): unknown[] {
  const out: unknown[] = [];
  let starts = 0;
  for (let i = text.indexOf('{'); i !== -1 && starts < 50; starts++) {
    const end = balancedEnd(text, i);
    let value: unknown;
    if (end !== -1) {
      try {
        value = JSON.parse(text.slice(i, end + 1));
      } catch {
        // not JSON: try the next opening brace
      }
    }
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      out.push(value);
      i = text.indexOf('{', end + 1);
    } else i = text.indexOf('{', i + 1);
  }
  return out;
}

function balancedEnd(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0) return i;
  }
  return -1;
}

/**
 * The fallback when no valid JSON came back after the retry. It yields a score only when the text
 * states all five dimensions unambiguously, never a guess, and never a total: each named and
 * followed by a number 0–100 with only punctuation between (`Clarity: 72`,
 * `**Correctness** — 80/100`, `| Efficiency | 64 |`, `Clarity (20%): 72`, `"clarity": {"score": 72}`);
 * a number out of 10 (`8/10`) does not count, nor does prose like `clarity improved in iteration 2`.
 * A dimension named with two different numbers is ambiguous; one given as a negative number, over
 * 100 or null means no score at all; a dimension missing (a truncated answer) means the answer is
 * incomplete. Whatever total the text states (`Overall score: 85`, maestro's `composite_score`) is
 * never taken: the composite is recomputed from the five dimensions.
 */
export function extractScoreHeuristically(text: string): ParsedEvaluation | undefined {
  const dimensions = {} as DimensionScores;
  for (const d of DIMENSIONS) {
    // The name, an optional `(weight 20%)` and `score`, then only punctuation before the number.
    const re = new RegExp(
      `\\b${d}\\b(?:\\s*\\([^)\\n]{0,40}\\))?(?:[^\\w\\n]{0,6}score)?([^\\w\\n]{0,10})(\\d+(?:\\.\\d+)?|null\\b)(?!\\d)(\\s*/\\s*(\\d+))?`,
      'gi',
    );
    const found = new Set<number>();
    for (const m of text.matchAll(re)) {
      if (m[4] !== undefined && m[4] !== '100') continue;
      const n = m[2].toLowerCase() === 'null' ? Number.NaN : Number(m[2]);
      // `"clarity": -5`, `Clarity: 140` or `clarity: null` is not a score, and not something to guess around.
      if (m[1].endsWith('-') || !isScore(n)) return undefined;
      found.add(n);
    }
    if (found.size !== 1) return undefined;
    dimensions[d] = [...found][0];
  }
  return { source: 'heuristic-dimensions', score: compositeScore(dimensions), dimensions, strengths: [], weaknesses: [], suggestions: [], skills: {} };
}
