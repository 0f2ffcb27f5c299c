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
