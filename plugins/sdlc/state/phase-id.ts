import * as v from 'valibot';

/**
 * A phase id as files write it: an integer (`0`, `7`) or a string (`"0"`, `build`, `close`).
 * `'1'` and `1` are the same phase: ids are always compared through `phaseKey`.
 */
export const PhaseIdSchema = v.pipe(
  v.union([v.pipe(v.number(), v.integer(), v.minValue(0)), v.pipe(v.string(), v.minLength(1))]),
  v.description('Phase id: an integer (0, 1, 2, 3, 7, 8, 9) or a string ("build", "close"). Quoted and bare numbers name the same phase.'),
);

export type PhaseId = v.InferOutput<typeof PhaseIdSchema>;

/** The canonical key of a phase id: the string form. `phases` maps and comparisons use it. */
export function phaseKey(id: PhaseId): string {
  return String(id);
}

export function samePhase(a: PhaseId | null | undefined, b: PhaseId | null | undefined): boolean {
  return a !== null && a !== undefined && b !== null && b !== undefined && String(a) === String(b);
}
