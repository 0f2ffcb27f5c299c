import * as v from 'valibot';
import type { Kernel } from '../../../core/index.ts';
import { phaseKey } from '../state/phase-id.ts';

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

/** Profile gate entry fields the planner renames on the way into the input. */
const ENTRY_FIELDS: Record<string, string> = { projectRoot: '', phase: 'phases', id: 'id', severity: 'severity', argv: 'argv', timeoutMs: 'timeout_seconds' };

/** The `sluice.gates.<i>` field of the profile that a gate input's field came from (`with.<key>` for a `with:` key). */
export function entryField(i: number, inputField: string): string {
  const head = inputField.split('.')[0];
  const entry = ENTRY_FIELDS[head];
  if (entry === undefined) return `sluice.gates.${i}.with${inputField ? `.${inputField}` : ''}`;
  return entry ? `sluice.gates.${i}.${entry}${inputField.slice(head.length)}` : `sluice.gates.${i}`;
}

const isRecord = (x: unknown): x is Record<string, unknown> => typeof x === 'object' && x !== null && !Array.isArray(x);

/**
 * Profile entry `sluice.gates.<i>` against the input schema of the gate type it names, with the input built
 * as the planner builds it: the field refused and why, naming the gate and its plugin. Undefined when it
 * fits, for the built-in command gate (its fields have the profile's schema) and for a type no loaded
 * plugin provides (another rule reports that). Read defensively: the profile may have failed its schema.
 */
export function profileEntryInputProblem(kernel: Kernel, entry: unknown, i: number): { path: string; message: string; plugin?: string } | undefined {
  if (!isRecord(entry) || typeof entry.type !== 'string' || entry.type === 'command') return undefined;
  const gate = kernel.gates.get(entry.type);
  if (!gate?.input) return undefined;
  const phase = (Array.isArray(entry.phases) ? entry.phases : []).find((p): p is string | number => typeof p === 'string' || typeof p === 'number');
  const input = {
    ...(isRecord(entry.with) ? entry.with : {}),
    projectRoot: kernel.projectRoot,
    phase: phase === undefined ? '' : phaseKey(phase),
    id: typeof entry.id === 'string' ? entry.id : '',
    ...(entry.severity === undefined ? {} : { severity: entry.severity }),
  };
  const parsed = v.safeParse(gate.input, input);
  if (parsed.success) return undefined;
  const issue = parsed.issues[0];
  return {
    path: entryField(i, v.getDotPath(issue) ?? ''),
    message: `gate ${gate.type} (${gate.id}) does not accept this input: ${issue.message}`,
    plugin: kernel.gates.entries().find((e) => e.value === gate)?.plugin,
  };
}
