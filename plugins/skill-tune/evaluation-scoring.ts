/**
 * The five quality dimensions of a skill run and their weights. The composite score is always
 * recomputed here from the dimension scores; a total the evaluator states itself is never trusted.
 */
export const DIMENSIONS = ['clarity', 'completeness', 'correctness', 'effectiveness', 'efficiency'] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export type DimensionScores = Record<Dimension, number>;

export const DIMENSION_WEIGHTS: Readonly<DimensionScores> = {
  clarity: 0.2,
  completeness: 0.25,
  correctness: 0.25,
  effectiveness: 0.2,
  efficiency: 0.1,
};

export const DIMENSION_LABELS: Readonly<Record<Dimension, string>> = {
  clarity: 'Clarity',
  completeness: 'Completeness',
  correctness: 'Correctness',
  effectiveness: 'Effectiveness',
  efficiency: 'Efficiency',
};

/** Weighted sum of the five dimensions, rounded to one decimal (scores are 0–100). */
export function compositeScore(d: DimensionScores): number {
  const sum = DIMENSIONS.reduce((acc, k) => acc + d[k] * DIMENSION_WEIGHTS[k], 0);
  return Math.round(sum * 10) / 10;
}

export const isScore = (n: unknown): n is number => typeof n === 'number' && Number.isFinite(n) && n >= 0 && n <= 100;
