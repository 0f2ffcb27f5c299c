/**
 * When the tuning loop stops. Checked after every iteration, in this order (the seed's order):
 * 1. the latest real score reaches the threshold;
 * 2. the iteration count reaches the maximum;
 * 3. convergence: the last three real scores rose by at most 2 points in total, without falling
 *    on the way. A score that fell is not convergence (the seed's `last3[2] - last3[0] <= 2`
 *    would call a collapse "converged"); the run goes on and the fall is reported;
 * 4. the error limit: that many consecutive iterations produced no score.
 * "Real" scores are the ones an evaluator gave; failed iterations add nothing to the window.
 */
export type TerminationReason = 'quality_threshold_met' | 'max_iterations_reached' | 'convergence_detected' | 'error_limit_reached';
export type ScoreTrend = 'rising' | 'flat' | 'falling' | 'first';

export interface TerminationInput {
  latestScore: number | null;
  threshold: number;
  currentIteration: number;
  maxIterations: number;
  /** Real scores only, oldest first. */
  scores: readonly number[];
  consecutiveErrors: number;
  maxErrors: number;
}

export interface TerminationDecision {
  terminate: boolean;
  reason?: TerminationReason;
  message: string;
  trend: ScoreTrend;
}

export const CONVERGENCE_WINDOW = 3;
export const CONVERGENCE_DELTA = 2;

/** How the latest real score compares with the one before it. */
export function scoreTrend(scores: readonly number[]): ScoreTrend {
  if (scores.length < 2) return 'first';
  const [a, b] = scores.slice(-2);
  return b > a ? 'rising' : b < a ? 'falling' : 'flat';
}

const fmt = (n: number) => String(Math.round(n * 10) / 10);

export function decideTermination(i: TerminationInput): TerminationDecision {
  const trend = scoreTrend(i.scores);
  if (i.latestScore !== null && i.latestScore >= i.threshold) {
    return { terminate: true, reason: 'quality_threshold_met', trend, message: `score ${fmt(i.latestScore)} reached the threshold ${fmt(i.threshold)}` };
  }
  if (i.currentIteration >= i.maxIterations) {
    const best = i.scores.length ? Math.max(...i.scores) : null;
    return {
      terminate: true,
      reason: 'max_iterations_reached',
      trend,
      message: `ran the maximum of ${i.maxIterations} iterations without reaching ${fmt(i.threshold)}${best === null ? ' (no iteration produced a score)' : ` (best ${fmt(best)})`}`,
    };
  }
  if (i.scores.length >= CONVERGENCE_WINDOW) {
    const window = i.scores.slice(-CONVERGENCE_WINDOW);
    const fell = window.findIndex((s, k) => k > 0 && s < window[k - 1]);
    const gain = window[window.length - 1] - window[0];
    if (fell === -1 && gain <= CONVERGENCE_DELTA) {
      return {
        terminate: true,
        reason: 'convergence_detected',
        trend,
        message: `the last ${CONVERGENCE_WINDOW} scores (${window.map(fmt).join(', ')}) improved by ${fmt(gain)} ≤ ${CONVERGENCE_DELTA} points`,
      };
    }
  }
  // Checked whatever the scores did before: a fall earlier in the window must not keep a failing run alive.
  if (i.consecutiveErrors >= i.maxErrors) {
    return { terminate: true, reason: 'error_limit_reached', trend, message: `${i.consecutiveErrors} consecutive iterations failed (limit ${i.maxErrors})` };
  }
  if (i.scores.length >= CONVERGENCE_WINDOW) {
    const window = i.scores.slice(-CONVERGENCE_WINDOW);
    const fell = window.findIndex((s, k) => k > 0 && s < window[k - 1]);
    if (fell !== -1) return { terminate: false, trend, message: `not converged: the score fell from ${fmt(window[fell - 1])} to ${fmt(window[fell])}` };
  }
  return { terminate: false, trend, message: trend === 'falling' ? 'the score fell; continuing' : 'continuing' };
}
