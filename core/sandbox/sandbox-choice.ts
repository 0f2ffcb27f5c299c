import * as v from 'valibot';
import { SluiceError } from '../errors/sluice-error.ts';
import type { SandboxKind } from './sandbox-policy.ts';

/** `sandbox:` in sluice.config and `--sandbox`: use it where the machine has it, insist on it, or not. */
export const SANDBOX_MODES = ['auto', 'required', 'off'] as const;
export type SandboxMode = (typeof SANDBOX_MODES)[number];
export const SandboxModeSchema = v.picklist(SANDBOX_MODES);

/**
 * What a run was sandboxed with, as its records say: the kind, `off` (the person chose so) or
 * `unavailable` (auto mode on a machine without one).
 */
export const SandboxUseSchema = v.picklist(['bubblewrap', 'sandbox-exec', 'off', 'unavailable'] satisfies (SandboxKind | 'off' | 'unavailable')[]);
export type SandboxUse = v.InferOutput<typeof SandboxUseSchema>;

export interface SandboxChoice {
  use: SandboxUse;
  /** One line for the person when the run goes unsandboxed although they did not turn it off. */
  notice?: string;
}

/** The one line `auto` prints on every run without a sandbox. */
export const UNSANDBOXED_NOTICE =
  'notice: no OS sandbox here (install bubblewrap on Linux); AI CLIs run unsandboxed and can write sluice records and read its keys (sandbox: required refuses instead)';

/** Decides how a run is sandboxed; `required` without a sandbox fails closed (SANDBOX_UNAVAILABLE). */
export function chooseSandbox(mode: SandboxMode, kind: SandboxKind | null): SandboxChoice {
  if (mode === 'off') return { use: 'off' };
  if (kind) return { use: kind };
  if (mode === 'required')
    throw new SluiceError('SANDBOX_UNAVAILABLE', {
      message: `the OS sandbox is required (--sandbox required, or sandbox: required in sluice.config) but this machine has no OS sandbox sluice can use (bubblewrap's bwrap on PATH that can start here, or macOS sandbox-exec); nothing was run`,
    });
  return { use: 'unavailable', notice: UNSANDBOXED_NOTICE };
}

/** The `--sandbox` option of every command that starts AI CLIs (read before the kernel is made, see the CLI's global options). */
export const SANDBOX_OPTION = {
  flags: '--sandbox <mode>',
  description: 'OS sandbox for the AI CLIs: auto (where the machine has one), required (refuse to run without), off (recorded)',
  choices: [...SANDBOX_MODES],
};
