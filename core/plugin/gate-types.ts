import type * as v from 'valibot';
import type { Host } from '../host/host.ts';

export type Severity = 'MUST' | 'SHOULD' | 'MAY';

/**
 * One line of a gate's verdict. `passed: null` means a person has to judge it. `data` is what the
 * gate hands its consumers besides the verdict (G5's metrics to lock), typed by the gate's `data` schema.
 */
export interface GateResult<D = unknown> {
  gate: string;
  artifact?: string;
  check?: string;
  passed: boolean | null;
  message: string;
  severity: Severity | 'INFO';
  data?: D;
  [key: string]: unknown;
}

/** What a gate's check gets besides its input: the Host port, the project it runs in and the job's signal. */
export interface GateContext {
  host: Host;
  /** The kernel's project root (absolute). */
  projectRoot: string;
  signal: AbortSignal;
}

/**
 * A gate type. Its input is plain JSON (gates run as queue jobs), checked by the kernel against `input`
 * before `check` runs: a bad input is GATE_INPUT_INVALID naming the plugin, the gate and the field.
 */
export interface GateDefinition<I = unknown, D = unknown> {
  type: string;
  /** Gate id as it appears in results, e.g. `G1-integrity`. */
  id: string;
  description: string;
  /** The input the gate accepts; `check` receives the schema's output. */
  input: v.GenericSchema<unknown, I>;
  /** The shape of the `data` its results may carry, checked by the kernel after `check`. */
  data?: v.GenericSchema<unknown, D>;
  /** Keep heavy code behind `await import(...)` in here, so the gate's plugin face stays light. */
  check(input: I, ctx: GateContext): Promise<GateResult<D>[]>;
  /**
   * The project command this check would run (argv from a project file), if any. The kernel runs
   * the check only when the workspace is trusted with exactly that command.
   */
  runs?(input: I): GateCommand | undefined;
}

/** A command a gate runs, and where in the project it was configured. */
export interface GateCommand {
  file: string;
  /** Field in that file, e.g. `sluice.gates.lint`. */
  what: string;
  argv: readonly string[];
}
