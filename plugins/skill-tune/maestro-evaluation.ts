/**
 * maestro's skill-iter-tune evaluator answers with `dimensions` as an array of
 * `{name, id, score, weight, feedback}`, a stated `composite_score`, `chain_scores` per skill and
 * suggestions with `target_file` / `rationale` / `code_snippet`. This turns that shape into sluice's
 * own (dimensions keyed by name), so one schema checks both. The stated composite is not carried:
 * sluice recomputes it. A dimension named twice becomes invalid rather than picking one.
 */
export function fromMaestroShape(value: Record<string, unknown>): Record<string, unknown> {
  const dims = value.dimensions;
  if (!Array.isArray(dims)) return value;
  const record: Record<string, unknown> = {};
  for (const entry of dims) {
    if (typeof entry !== 'object' || entry === null) continue;
    const d = entry as Record<string, unknown>;
    const key = String(d.id ?? d.name ?? '')
      .trim()
      .toLowerCase();
    if (key === '') continue;
    record[key] = key in record ? 'named twice' : d.score;
  }
  return { ...value, dimensions: record };
}

/**
 * maestro's `chain_scores` as its evaluate phase asks for them (`{ "<skill>": <score> }`) and as its
 * report prints them: a number, or a number in a string (`"72"`, `"72/100"`). A per-skill score
 * that is neither is left out (that skill then has no score), never the reason to reject the whole
 * evaluation. They only pick the weakest skill of a chain; the run's score comes from the dimensions.
 */
export function chainScoresOf(value: unknown): Record<string, number> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return {};
  const out: Record<string, number> = {};
  for (const [id, raw] of Object.entries(value)) {
    const text = typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(?:\/\s*100)?\s*$/.exec(raw)?.[1] : undefined;
    const n = typeof raw === 'number' ? raw : text === undefined ? Number.NaN : Number(text);
    if (Number.isFinite(n) && n >= 0 && n <= 100) out[id] = n;
  }
  return out;
}

/** The text a maestro suggestion carries: what to change, why, and the proposed snippet. */
export function maestroSuggestionText(s: { description?: string; rationale?: string; code_snippet?: string }, base: string): string {
  const parts = [base];
  if (s.rationale?.trim()) parts.push(`(why: ${s.rationale.trim()})`);
  if (s.code_snippet?.trim()) parts.push(`suggested text:\n${s.code_snippet.trim()}`);
  return parts.join(' ');
}
