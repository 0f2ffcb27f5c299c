import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { ReferenceRow } from './reference-plugin.ts';
import { repoRoot } from './reference-plugin.ts';

/** What a row means for a transition: passes, blocks, warns, needs a person, or only informs. */
export type Verdict = 'pass' | 'fail' | 'warn' | 'review' | 'info';

export interface SluiceRow {
  gate: string;
  id?: string;
  artifact?: string;
  check?: string;
  passed: boolean | null;
  severity: string;
}

function verdict(passed: boolean | null, severity: string | undefined): Verdict {
  if (passed === true) return 'pass';
  if (passed === false) return severity === 'MUST' ? 'fail' : 'warn';
  return severity === 'INFO' ? 'info' : 'review';
}

/** Keys both tools' rows share: gate and artifact, compliance id, or the exit condition's text. */
export function referenceKey(r: ReferenceRow): string {
  const g4 = /^G4-compliance-(.+)$/.exec(r.gate);
  if (g4) return `G4-compliance:${g4[1]}`;
  if (r.artifact) return `${r.gate}:${r.artifact}`;
  if (r.gate === 'G7-exit-criteria') return `G7-exit-criteria:${r.message.replace(/^Human verification required:\s*/, '')}`;
  if (r.check) return `${r.gate}:${r.check}`;
  return r.gate;
}

export function sluiceKey(r: SluiceRow): string {
  if (r.gate === 'G4-compliance') return `G4-compliance:${r.id}`;
  if (r.artifact) return `${r.gate}:${r.artifact}`;
  if (r.gate === 'G7-exit-criteria' || r.gate === 'G6-quality') return `${r.gate}:${r.check}`;
  if (r.gate === 'G3-metrics') return `G3-metrics:${r.id?.replace(/^G3:/, '')}`;
  return r.gate;
}

/** Rows by key; several rows under one key (G5 has more than one) keep the most severe verdict. */
function byKey<T>(rows: readonly T[], key: (r: T) => string, v: (r: T) => Verdict): Map<string, Verdict> {
  const rank: Verdict[] = ['info', 'pass', 'warn', 'review', 'fail'];
  const out = new Map<string, Verdict>();
  for (const r of rows) {
    const k = key(r);
    const now = v(r);
    const had = out.get(k);
    if (!had || rank.indexOf(now) > rank.indexOf(had)) out.set(k, now);
  }
  return out;
}

export interface Difference {
  key: string;
  reference: Verdict | 'absent';
  sluice: Verdict | 'absent';
}

/** Passing, informing and not printed all ask nothing of anyone: one verdict for the comparison. */
const settled = (v: Verdict | 'absent') => v === 'pass' || v === 'info' || v === 'absent';

/**
 * Rows whose verdicts differ: one tool blocks, warns or asks a person where the other does
 * something else. A row that passes in one tool and is not printed by the other is no difference.
 */
export function differences(reference: readonly ReferenceRow[], sluice: readonly SluiceRow[]): Difference[] {
  const ref = byKey(reference, referenceKey, (r) => verdict(r.passed, r.severity));
  const mine = byKey(sluice, sluiceKey, (r) => verdict(r.passed, r.severity));
  const out: Difference[] = [];
  for (const key of new Set([...ref.keys(), ...mine.keys()])) {
    const a = ref.get(key) ?? 'absent';
    const b = mine.get(key) ?? 'absent';
    if (a === b || (settled(a) && settled(b))) continue;
    out.push({ key, reference: a, sluice: b });
  }
  return out;
}

/** One row of the README's table of deliberate differences. */
export interface DeliberateDifference {
  rows: RegExp;
  reference: string[];
  sluice: string[];
  why: string;
  backedBy: string;
}

/**
 * The table under "## Deliberate differences from the reference plugin" in plugins/sdlc/README.md:
 * `| rows (regex on the key) | reference | sluice | why | backed by |`, verdicts separated by `/`.
 */
export async function deliberateDifferences(): Promise<DeliberateDifference[]> {
  const text = await readFile(join(repoRoot, 'plugins', 'sdlc', 'README.md'), 'utf8');
  const start = text.indexOf('## Deliberate differences from the reference plugin');
  if (start < 0) return [];
  const section = text.slice(start).split(/\n## /)[0];
  const rows = section.split('\n').filter((l) => /^\|\s*`/.test(l));
  return rows.map((line) => {
    const cells = line
      .split(/(?<!\\)\|/)
      .slice(1, -1)
      .map((c) => c.trim());
    const [rows, reference, sluice, why, backedBy] = cells;
    return {
      rows: new RegExp(rows.replace(/^`|`$/g, '').replace(/\\\|/g, '|')),
      reference: reference.split('/').map((s) => s.trim()),
      sluice: sluice.split('/').map((s) => s.trim()),
      why,
      backedBy,
    };
  });
}

/** The table row that explains a difference, if any. */
export function explained(d: Difference, table: readonly DeliberateDifference[]): DeliberateDifference | undefined {
  return table.find((t) => t.rows.test(d.key) && t.reference.includes(d.reference) && t.sluice.includes(d.sluice));
}
