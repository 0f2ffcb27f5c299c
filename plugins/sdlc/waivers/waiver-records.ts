import type { GateResult } from '../../../core/index.ts';
import { sha256Hex } from '../../../core/index.ts';
import { canonicalJson } from '../signing/transition-statement.ts';
import type { AcceptedWaiver, HistoryEntry } from '../state/history-schema.ts';
import { phaseKey } from '../state/phase-id.ts';
import type { SdlcState } from '../state/state-schema.ts';

const text = (value: unknown): string | null => (typeof value === 'string' && value.trim() !== '' ? value : null);

/**
 * The digest that ties an acceptance to one waiver as a person saw it: gate, file, who, why and the
 * markers it let through. The line is left out (an edit above the WAIVED line moves it); a new reason,
 * name or placeholder gives another digest, so the changed waiver needs a new acceptance.
 */
export function waiverDigest(w: Pick<AcceptedWaiver, 'gate' | 'file' | 'who' | 'why' | 'markers'>): string {
  return `sha256:${sha256Hex(canonicalJson({ gate: w.gate, file: w.file, who: w.who, why: w.why, markers: [...w.markers].sort() }))}`;
}

/** The `WAIVED:` entries one gate result carries (G2 writes `waivers: [{file, line, who, why, markers}]`); malformed ones are skipped. */
export function waiversOfResult(r: { gate: string; id?: unknown; artifact?: unknown; waivers?: unknown }): AcceptedWaiver[] {
  if (!Array.isArray(r.waivers)) return [];
  return r.waivers.flatMap((raw) => {
    const o = (raw ?? {}) as Record<string, unknown>;
    const who = text(o.who);
    const why = text(o.why);
    if (!who || !why) return [];
    const markers = Array.isArray(o.markers) ? o.markers.filter((m): m is string => typeof m === 'string') : [];
    const base = { gate: r.gate, result: String(r.id ?? r.gate), file: text(o.file) ?? text(r.artifact) ?? '?', who, why, markers };
    return [{ ...base, ...(typeof o.line === 'number' && o.line >= 1 ? { line: o.line } : {}), digest: waiverDigest(base) }];
  });
}

/** Every waiver of a gate run, in result order. */
export function waiversOfRun(results: readonly GateResult[]): AcceptedWaiver[] {
  return results.flatMap((r) => waiversOfResult(r));
}

/** One recorded acceptance of a waiver: the history entry that holds it. */
export interface WaiverAcceptanceRecord {
  index: number;
  entry: HistoryEntry;
}

/** Acceptances recorded for `phase`, by waiver digest, oldest first. */
export function acceptancesOf(state: SdlcState, phase: string): Map<string, WaiverAcceptanceRecord[]> {
  const out = new Map<string, WaiverAcceptanceRecord[]>();
  state.history.forEach((entry, index) => {
    if (!entry.waiver_acceptance || phaseKey(entry.from) !== phase) return;
    for (const w of entry.waivers ?? []) out.set(w.digest, [...(out.get(w.digest) ?? []), { index, entry }]);
  });
  return out;
}
