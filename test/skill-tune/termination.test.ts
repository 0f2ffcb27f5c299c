import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { decideTermination, type TerminationInput } from '../../plugins/skill-tune/termination.ts';

const base: TerminationInput = { latestScore: null, threshold: 80, currentIteration: 1, maxIterations: 5, scores: [], consecutiveErrors: 0, maxErrors: 3 };
const decide = (o: Partial<TerminationInput>) => decideTermination({ ...base, ...o, latestScore: o.latestScore ?? o.scores?.at(-1) ?? null });

describe('termination', () => {
  it('goes on while nothing is met', () => {
    const d = decide({ scores: [50, 60], currentIteration: 2 });
    assert.equal(d.terminate, false);
    assert.equal(d.trend, 'rising');
  });

  it('stops when the threshold is met, even on the last iteration and with a converged window', () => {
    const d = decide({ scores: [79, 80, 80], currentIteration: 5 });
    assert.equal(d.reason, 'quality_threshold_met');
    assert.equal(decide({ scores: [80], currentIteration: 1 }).reason, 'quality_threshold_met');
  });

  it('checks max iterations before convergence and the error limit', () => {
    assert.equal(decide({ scores: [60, 61, 61], currentIteration: 5 }).reason, 'max_iterations_reached');
    assert.equal(decide({ scores: [60], consecutiveErrors: 3, currentIteration: 5 }).reason, 'max_iterations_reached');
    assert.match(decide({ scores: [60, 70], currentIteration: 5 }).message, /best 70/);
  });

  it('detects convergence when the last three real scores gained at most 2 points', () => {
    const d = decide({ scores: [40, 70, 71, 72], currentIteration: 4 });
    assert.equal(d.reason, 'convergence_detected');
    assert.match(d.message, /70, 71, 72/);
    assert.equal(decide({ scores: [70, 70, 70], currentIteration: 3 }).reason, 'convergence_detected');
    assert.equal(decide({ scores: [70, 71, 72.1], currentIteration: 3 }).terminate, false);
  });

  it('does not call a falling score converged, and says it fell', () => {
    // The seed's rule (last3[2] - last3[0] <= 2) would stop here as "converged".
    const d = decide({ scores: [70, 65, 60], currentIteration: 3 });
    assert.equal(d.terminate, false);
    assert.equal(d.trend, 'falling');
    assert.match(d.message, /fell from 70 to 65/);
    const wobble = decide({ scores: [70, 72, 71], currentIteration: 3 });
    assert.equal(wobble.terminate, false);
    assert.match(wobble.message, /fell from 72 to 71/);
  });

  it('stops at the error limit of consecutive failed iterations', () => {
    assert.equal(decide({ scores: [], consecutiveErrors: 3, currentIteration: 3 }).reason, 'error_limit_reached');
    // A fall in the last three scores is no convergence, but must not keep a failing run alive either.
    assert.equal(decide({ scores: [60, 50, 55], consecutiveErrors: 3, currentIteration: 6, maxIterations: 10 }).reason, 'error_limit_reached');
    assert.equal(decide({ scores: [], consecutiveErrors: 2, currentIteration: 3 }).terminate, false);
  });
});
