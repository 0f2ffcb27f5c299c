import type { GateResult } from '../../../core/index.ts';
import type { GateSummary } from '../state/history-schema.ts';

/** The seed's summary counts; INFO rows are reports and not counted. */
export function summarizeResults(results: readonly GateResult[]): GateSummary {
  const counted = results.filter((r) => r.severity !== 'INFO');
  return {
    passed: counted.filter((r) => r.passed === true).length,
    failed: counted.filter((r) => r.passed === false).length,
    manual: counted.filter((r) => r.passed === null).length,
  };
}

/** MUST results that failed: each one blocks the transition. */
export const blockingResults = (results: readonly GateResult[]) => results.filter((r) => r.severity === 'MUST' && r.passed === false);

/** SHOULD/MAY failures: warnings that never block. */
export const warningResults = (results: readonly GateResult[]) =>
  results.filter((r) => (r.severity === 'SHOULD' || r.severity === 'MAY') && r.passed === false);

/** Results a person must judge (passed: null); each needs its own approval. */
export const manualResults = (results: readonly GateResult[]) => results.filter((r) => r.passed === null && r.severity !== 'INFO');

/** The id `--approve` takes for a result. */
export const approvalId = (r: GateResult) => String(r.id ?? r.gate);
