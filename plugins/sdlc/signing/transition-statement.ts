import { sha256Hex } from '../../../core/index.ts';
import type { HistoryEntry } from '../state/history-schema.ts';
import type { SdlcState } from '../state/state-schema.ts';

/**
 * The exact text a person signs for one history entry. Every field comes from the entry itself, its
 * position in the history and the project, so `sluice audit` rebuilds it from state.yaml alone: a
 * changed phase, gate id, result, justification or time gives other text and the signature fails;
 * the same signature on another entry (a replay) fails too, since its position and time differ.
 */
export const STATEMENT_VERSION = 'sluice-transition-v1';

/** Which kind of human decision an entry records. */
export type TransitionKind = 'advance' | 'skip' | 'reenter' | 'signoff' | 'refreeze' | 'waiver';

export function transitionKind(entry: HistoryEntry): TransitionKind {
  if (entry.waiver_acceptance) return 'waiver';
  return entry.skipped ? 'skip' : entry.reentry ? 'reenter' : entry.refreeze ? 'refreeze' : entry.signoff ? 'signoff' : 'advance';
}

/** JSON with object keys sorted, so equal data always hashes the same. */
export function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** The signed text for the entry at `index` of the project's history. */
export function transitionStatement(project: Pick<SdlcState, 'project_name' | 'created_at'>, entry: HistoryEntry, index: number): string {
  const gates = [...new Set([...(entry.approvals ?? []).map((a) => a.gate), ...(entry.waivers ?? []).map((w) => w.result)])].sort();
  return [
    STATEMENT_VERSION,
    `project: ${JSON.stringify(project.project_name)} created ${project.created_at}`,
    `entry: ${index}`,
    `kind: ${transitionKind(entry)}`,
    `from: ${entry.from}`,
    `to: ${entry.to}`,
    `at: ${entry.at}`,
    `gates: ${gates.join(',') || '-'}`,
    `results-sha256: ${sha256Hex(canonicalJson(entry.results ?? []))}`,
    `summary-sha256: ${sha256Hex(canonicalJson(entry.gate_results ?? null))}`,
    `justification-sha256: ${sha256Hex(entry.justification ?? '')}`,
    // A re-freeze signs the checksums it accepts (the line is absent for other entries, whose text is unchanged).
    ...(entry.frozen_files ? [`frozen-sha256: ${sha256Hex(canonicalJson(entry.frozen_files))}`] : []),
    // A waiver acceptance signs each waiver as the gate run found it (file, who, why, markers, digest).
    ...(entry.waivers ? [`waivers-sha256: ${sha256Hex(canonicalJson(entry.waivers))}`] : []),
    '',
  ].join('\n');
}
