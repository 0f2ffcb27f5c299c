import type { Style } from '../../../core/index.ts';
import { personLabel } from '../../sdlc/index.ts';
import type { GateAudit, GateComparison, WaiverNote } from '../model/gate-audit.ts';
import { formatTimestamp } from '../model/timestamps.ts';
import { textTable } from '../text-table.ts';

const pct = (rate: number) => `${Math.round(rate * 100)}%`;

/** Items of one transition together, in first-seen order. */
function groupBy<T>(items: readonly T[], keyOf: (item: T) => unknown[]): T[][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const key = JSON.stringify(keyOf(item));
    groups.set(key, [...(groups.get(key) ?? []), item]);
  }
  return [...groups.values()];
}

/** Whether a waiver was accepted, by whom (signed or unverified) and whether its signature holds. */
function acceptanceText(w: WaiverNote, policy: GateAudit['waiverPolicy'], s: Style): string {
  const c = w.acceptance;
  if (!c) return policy?.acceptance ? s.red('not accepted (the profile requires acceptance)') : 'not accepted';
  const by = personLabel(c.by, c.signature === 'verified' ? c.signer : null);
  const problem = c.signature === 'verified' || c.signature === 'unsigned' || c.signature === 'unchecked' ? '' : `, signature ${s.red(c.signature)}`;
  const unsigned = c.signature === 'unsigned' && policy?.signed ? `, ${s.red('unsigned (the profile requires signatures)')}` : '';
  return `accepted by ${by} ${formatTimestamp(c.at)}${problem}${unsigned}`;
}

/** The human audit: per-gate rates, the flags, then every human decision that let a transition through, by kind; `signer` labels a name as signed or unverified. */
export function renderAudit(
  a: GateAudit,
  s: Style,
  signer: (at: string, name: string | null) => string = (_at, name) => `${name ?? 'unknown'} (unverified)`,
): string {
  const lines = [
    s.bold(`Gate audit: ${a.project}`),
    `${a.runs} recorded gate run${a.runs === 1 ? '' : 's'}; ${a.transitions.advances} advance${a.transitions.advances === 1 ? '' : 's'}, ${a.transitions.skips} skip${a.transitions.skips === 1 ? '' : 's'}, ${a.transitions.reentries} re-entr${a.transitions.reentries === 1 ? 'y' : 'ies'}${a.transitions.signoffs ? `, final phase signed off` : ''}${a.transitions.waiverAcceptances ? `, ${a.transitions.waiverAcceptances} waiver acceptance${a.transitions.waiverAcceptances === 1 ? '' : 's'}` : ''}`,
    '',
  ];
  if (a.gates.length === 0) lines.push(s.dim('No gate results recorded yet (run `sluice gate` or `sluice next`).'));
  else {
    const rows = a.gates.map((g) => [
      g.gate,
      String(g.results),
      pct(g.passRate),
      pct(g.failRate),
      pct(g.manualRate),
      g.waived ? String(g.waived) : '—',
      g.phases.join(', '),
    ]);
    lines.push(
      ...textTable(['Gate', 'Results', 'Pass', 'Fail', 'Manual', 'Waived', 'Phases'], rows, (row, col, cell) =>
        col === 3 && row[3] !== '0%' ? s.red(cell) : col === 4 && row[4] !== '0%' ? s.yellow(cell) : cell,
      ),
    );
  }
  lines.push('');
  lines.push(
    `Always passing (≥ ${a.thresholds.alwaysPassMinResults} results, never failed or manual; may be too lenient): ${a.alwaysPassing.length ? a.alwaysPassing.map((g) => g.gate).join(', ') : '—'}`,
  );
  lines.push(
    `Failing over ${pct(a.thresholds.failingOver)} of results (may need adjustment): ${a.failingOverHalf.length ? s.red(a.failingOverHalf.map((g) => g.gate).join(', ')) : '—'}`,
  );
  const why = (j: string | null) => (j ? JSON.stringify(j) : s.dim('no justification recorded'));
  // One block per transition: who signed, why, and which results were approved.
  const approvalGroups = groupBy(a.approvals, (o) => [o.phase, o.at, o.signedBy, o.justification]);
  lines.push('', s.bold(`Approvals (${a.approvals.length})`));
  if (a.approvals.length === 0) lines.push(s.dim('  (none)'));
  for (const group of approvalGroups) {
    const [first] = group;
    lines.push(`  ${formatTimestamp(first.at)}  phase ${first.phase}, signed by ${signer(first.at, first.signedBy)}; ${why(first.justification)}`);
    const named = group.filter((o) => o.via !== 'confirmed').map((o) => o.subject);
    const confirmed = group.filter((o) => o.via === 'confirmed').map((o) => o.subject);
    if (named.length) lines.push(`    approved: ${named.join(', ')}`);
    if (confirmed.length) lines.push(`    approved by confirming the listed gates: ${confirmed.join(', ')}`);
  }
  const overrideGroups = groupBy(a.overrides, (o) => [o.phase, o.at, o.approver, o.justification]);
  lines.push('', s.bold(`Overrides (${a.overrides.length})`));
  if (a.overrides.length === 0) lines.push(s.dim('  (none)'));
  for (const group of overrideGroups) {
    const [first] = group;
    lines.push(`  ${formatTimestamp(first.at)}  phase ${first.phase}, by ${signer(first.at, first.approver)}; ${why(first.justification)}`);
    for (const o of group) lines.push(`    advanced past failing ${o.gate}: ${o.subject}`);
  }
  // Waivers apart from passes: each let an unfinished artifact through, and names who decided it.
  lines.push('', s.bold(`Waivers (${a.waivers.length})`));
  if (a.waivers.length === 0) lines.push(s.dim('  (none)'));
  for (const w of a.waivers)
    lines.push(
      `  phase ${w.phase}, ${w.file}${w.line ? `:${w.line}` : ''}: waived by ${w.who}; ${JSON.stringify(w.why)}${w.at ? ` (advanced ${formatTimestamp(w.at)})` : ''}; ${acceptanceText(w, a.waiverPolicy, s)}`,
    );
  lines.push('', s.bold(`Re-freezes (${a.refreezes.length})`));
  if (a.refreezes.length === 0) lines.push(s.dim('  (none)'));
  for (const r of a.refreezes)
    lines.push(`  ${formatTimestamp(r.at)}  ${r.files.join(', ')} (phase ${r.phase}), by ${signer(r.at, r.approver)}; ${why(r.justification)}`);
  lines.push('', s.bold(`Skips (${a.skips.length})`));
  if (a.skips.length === 0) lines.push(s.dim('  (none)'));
  for (const k of a.skips) lines.push(`  ${formatTimestamp(k.at)}  skipped ${k.from} → ${k.to}, by ${signer(k.at, k.approver)}; ${why(k.justification)}`);
  lines.push('', s.bold(`Re-entries (${a.reentries.length})`));
  if (a.reentries.length === 0) lines.push(s.dim('  (none)'));
  for (const r of a.reentries) lines.push(`  ${formatTimestamp(r.at)}  ${r.from} → ${r.to}, by ${signer(r.at, r.approver)}; ${why(r.justification)}`);
  return lines.join('\n');
}

/** `audit --compare`: pass/fail/manual rates of both projects side by side. */
export function renderComparison(a: GateAudit, b: GateAudit, rows: readonly GateComparison[], s: Style): string {
  const cell = (g: GateComparison['a']) => (g ? `${pct(g.passRate)}/${pct(g.failRate)}/${pct(g.manualRate)} (${g.results})` : '—');
  const delta = (d: number | null) => (d === null ? '—' : `${d > 0 ? '+' : ''}${Math.round(d * 100)} pts`);
  return [
    s.bold(`Gate rates compared: ${a.project} vs ${b.project}`),
    s.dim('pass/fail/manual (results)'),
    ...textTable(
      ['Gate', a.project, b.project, 'Pass Δ'],
      rows.map((r) => [r.gate, cell(r.a), cell(r.b), delta(r.passRateDelta)]),
    ),
  ].join('\n');
}
