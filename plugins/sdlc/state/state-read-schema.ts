import * as v from 'valibot';
import { SdlcStateSchema, type SdlcState } from './state-schema.ts';

const strict = SdlcStateSchema.pipe[0];

/** The earliest time the state records (when created_at is missing, the project began no later). */
function earliestTimestamp(s: { phases: SdlcState['phases']; history: SdlcState['history'] }): string {
  const times = [...Object.values(s.phases).map((p) => p.entered_at), ...s.history.map((h) => h.at)].filter((t): t is string => typeof t === 'string');
  return times.sort()[0] ?? '1970-01-01T00:00:00Z';
}

/**
 * `.sdlc/state.yaml` for the read-only views (status, audit, report): states another tool wrote
 * without `history`, `version`, `created_at`, `phases` or `phase_name` are read with defaults (no
 * history, "1.0", the earliest recorded time, no phase records, the registry's name). Writes keep the strict SdlcStateSchema, so such a state is completed or refused by
 * the first command that writes it, never half-written.
 */
export const SdlcStateReadSchema = v.pipe(
  v.looseObject({
    ...strict.entries,
    version: v.optional(strict.entries.version, '1.0'),
    created_at: v.optional(strict.entries.created_at),
    history: v.optional(strict.entries.history, []),
    phases: v.optional(strict.entries.phases, {}),
    // Filled in from the registry once it is read (readableState); '' until then.
    phase_name: v.optional(strict.entries.phase_name, ''),
  }),
  v.transform((s): SdlcState => ({ ...s, created_at: s.created_at ?? earliestTimestamp(s) })),
  v.description('.sdlc/state.yaml as the read-only views read it: history, version, created_at, phases and phase_name may be missing.'),
);
