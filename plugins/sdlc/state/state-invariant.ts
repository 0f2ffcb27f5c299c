import { phaseKey } from './phase-id.ts';
import type { SdlcState } from './state-schema.ts';

/**
 * The rules every write of state.yaml keeps, checked by the store after the update function ran:
 * history is append-only (never shorter, earlier entries unchanged) and exactly one phase is
 * active, the one `current_phase` names; the checksums recorded at init never change.
 */
export function sdlcStateInvariant(before: SdlcState, after: SdlcState): string | undefined {
  if (after.history.length < before.history.length) {
    return `history is append-only: it would shrink from ${before.history.length} to ${after.history.length} entries`;
  }
  for (let i = 0; i < before.history.length; i++) {
    if (stableJson(before.history[i]) !== stableJson(after.history[i])) return `history is append-only: entry ${i} would be changed`;
  }
  if (before.frozen_files !== undefined && stableJson(before.frozen_files) !== stableJson(after.frozen_files)) {
    return 'frozen_files is written once at init; a deliberate change of a frozen file is recorded with `sluice refreeze`';
  }
  return activePhaseProblem(after);
}

/** Why the state does not have exactly one active phase equal to current_phase, if it does not. */
export function activePhaseProblem(state: SdlcState): string | undefined {
  const active = Object.entries(state.phases)
    .filter(([, p]) => p.status === 'active')
    .map(([id]) => id);
  // The terminal phase signed off: nothing is active any more, the project is complete.
  if (active.length === 0 && state.phases[phaseKey(state.current_phase)]?.status === 'completed') return undefined;
  if (active.length !== 1) return `exactly one phase must be active, found ${active.length}${active.length ? ` (${active.join(', ')})` : ''}`;
  if (active[0] !== phaseKey(state.current_phase)) return `current_phase ${phaseKey(state.current_phase)} is not the active phase (${active[0]})`;
  return undefined;
}

/** JSON with sorted keys, so two equal entries compare equal whatever their key order. */
function stableJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v !== null && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}
