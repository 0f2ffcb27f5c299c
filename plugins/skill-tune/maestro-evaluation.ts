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
  const out: Record<string, unknown> = { ...value, dimensions: record };
  const chain = value.chain_scores;
  if (typeof chain === 'object' && chain !== null && !Array.isArray(chain)) out.chain_scores = chain;
  return out;
}

/** The text a maestro suggestion carries: what to change, why, and the proposed snippet. */
export function maestroSuggestionText(s: { description?: string; rationale?: string; code_snippet?: string }, base: string): string {
  const parts = [base];
  if (s.rationale?.trim()) parts.push(`(why: ${s.rationale.trim()})`);
  if (s.code_snippet?.trim()) parts.push(`suggested text:\n${s.code_snippet.trim()}`);
  return parts.join(' ');
}
