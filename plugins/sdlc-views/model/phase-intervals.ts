import { timestampMs } from './timestamps.ts';

export interface TransitionLike {
  from: string | number;
  to: string | number;
  at: string;
  reentry?: boolean;
  skipped?: boolean;
  /** A re-freeze of frozen files: no move. */
  refreeze?: boolean;
  waiver_acceptance?: boolean;
  /** The terminal phase signed off: nothing is active after it. */
  signoff?: boolean;
}

/** One stretch of time a phase was active; `open` while it still is. */
export interface ActiveInterval {
  start: number;
  end: number;
  open: boolean;
  /** How the stretch ended: advanced, skipped, or left for an earlier phase. */
  endedBy?: 'advance' | 'skip' | 'reentry';
  /** How it began: the project start, an advance, a skip of the previous phase, or a re-entry. */
  startedBy: 'start' | 'advance' | 'skip' | 'reentry';
}

/**
 * Pure: replays the append-only history into the stretches of time each phase was active, so a
 * phase re-entered later shows two bars. The project starts in `firstPhase` at `createdAt`; each
 * entry closes `from` and opens `to` at its time; the last open stretch runs to `now`.
 */
export function phaseIntervals(createdAt: string, firstPhase: string, history: readonly TransitionLike[], now: string): Map<string, ActiveInterval[]> {
  const out = new Map<string, ActiveInterval[]>();
  const push = (phase: string, interval: ActiveInterval) => out.set(phase, [...(out.get(phase) ?? []), interval]);
  let current = firstPhase;
  let since = timestampMs(createdAt);
  let startedBy: ActiveInterval['startedBy'] = 'start';
  let finished = false;
  for (const entry of history) {
    // Re-freezes and waiver acceptances record a decision in place: no phase starts or ends.
    if (entry.refreeze || entry.waiver_acceptance) continue;
    const at = timestampMs(entry.at);
    if (entry.signoff) {
      push(String(entry.from), { start: since, end: at, open: false, endedBy: 'advance', startedBy });
      finished = true;
      continue;
    }
    finished = false;
    const kind = entry.reentry ? 'reentry' : entry.skipped ? 'skip' : 'advance';
    push(String(entry.from), { start: since, end: at, open: false, endedBy: kind, startedBy });
    // A history written by hand may not chain (from ≠ the phase we think is active); follow the entry.
    current = String(entry.to);
    since = at;
    startedBy = kind;
  }
  if (!finished) push(current, { start: since, end: Math.max(since, timestampMs(now)), open: true, startedBy });
  return out;
}
