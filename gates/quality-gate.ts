import * as v from 'valibot';
import { defineGate, gatePlugin, resultId, type GateResult } from '../core/index.ts';

export const QualityInputSchema = v.object({
  phase: v.string(),
  /** Profile `quality.evaluation_criteria` that apply to the phase (no `phases` means build). */
  criteria: v.array(v.object({ name: v.string(), description: v.string(), severity: v.optional(v.picklist(['fail', 'warn'])) })),
});
export type QualityInput = v.InferOutput<typeof QualityInputSchema>;

export const G6 = 'G6-quality';

/**
 * G6: the profile's qualitative evaluation criteria for the phase. sluice cannot judge "each ADR states
 * the options considered", so every criterion is a manual judgement (passed: null) with a stable id to
 * approve; never a pass by default. `fail` criteria are MUST, `warn` SHOULD.
 */
export const qualityGate = defineGate({
  type: 'quality',
  id: G6,
  description: 'profile evaluation criteria for the phase, as manual judgements',
  input: QualityInputSchema,
  async check(input) {
    const taken = new Set<string>();
    return input.criteria.map(
      (c): GateResult => ({
        gate: G6,
        id: resultId('G6', c.name, taken),
        check: c.name,
        passed: null,
        message: `judge: ${c.description}`,
        severity: c.severity === 'fail' ? 'MUST' : 'SHOULD',
      }),
    );
  },
});

export const qualityGatePlugin = gatePlugin(qualityGate);
