import * as v from 'valibot';

/**
 * The input a gate type registered by a plugin receives when a profile lists it under `sluice.gates`:
 * the entry's `with` map, plus where and for what it runs. Plain JSON, like every gate input.
 */
export type ProfileGateInput<With extends object = Record<string, unknown>> = With & {
  /** Absolute path of the project being gated. */
  projectRoot: string;
  /** The phase whose gate run includes this entry (`3`, `4a`). */
  phase: string;
  /** The entry's `id` in the profile. */
  id: string;
  /** The entry's `severity`, when it sets one. */
  severity?: 'MUST' | 'SHOULD' | 'MAY';
};

const ENTRY = {
  projectRoot: v.string(),
  phase: v.string(),
  id: v.string(),
  severity: v.optional(v.picklist(['MUST', 'SHOULD', 'MAY'])),
};

/**
 * A gate's `input` schema for a profile entry whose `with:` map holds `withEntries`: the fields the SDLC
 * adds (projectRoot, phase, id, severity) are accepted, and a `with:` key the gate does not name is an
 * error naming the profile file and `sluice.gates.<i>.with.<key>`, before the gate runs.
 */
export function profileGateInput<const E extends v.ObjectEntries>(withEntries: E) {
  return v.strictObject({ ...withEntries, ...ENTRY });
}
