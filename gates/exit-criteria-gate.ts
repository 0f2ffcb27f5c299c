import * as v from 'valibot';
import { defineGate, gatePlugin, resultId, type GateResult } from '../core/index.ts';

export const ExitCriteriaInputSchema = v.object({
  /** The prose `exit_gate.conditions` of the phase. */
  conditions: v.array(v.string()),
});
export type ExitCriteriaInput = v.InferOutput<typeof ExitCriteriaInputSchema>;

export const G7 = 'G7-exit-criteria';

/**
 * G7: the registry's prose exit conditions ("Scope boundaries are unambiguous") put in front of the
 * person signing, one manual MUST result each, so the approval is of the questions, not of a file list.
 */
export const exitCriteriaGate = defineGate({
  type: 'exit-criteria',
  id: G7,
  description: 'prose exit conditions of the phase, for manual review',
  input: ExitCriteriaInputSchema,
  async check(input) {
    const taken = new Set<string>();
    return input.conditions.map(
      (text): GateResult => ({
        gate: G7,
        id: resultId('G7', text, taken),
        check: text,
        passed: null,
        message: 'manual review: a person confirms this condition holds',
        severity: 'MUST',
      }),
    );
  },
});

export const exitCriteriaGatePlugin = gatePlugin(exitCriteriaGate);
