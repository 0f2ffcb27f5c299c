import type { Style } from '../../../core/index.ts';
import type { HistoryLine, StatusView } from '../model/status-view.ts';
import { formatDate, formatTimestamp } from '../model/timestamps.ts';
import { textTable } from '../text-table.ts';
import { personLabel } from '../../sdlc/index.ts';

const statusColour = (s: Style, status: string, text: string) =>
  status === 'completed' ? s.green(text) : status === 'active' ? s.cyan(text) : status === 'skipped' ? s.yellow(text) : s.dim(text);

/** `0 → 1 advance (6 passed, 0 failed, 1 manual) by alice: "All gates passed"` */
export function describeTransition(h: HistoryLine): string {
  const kind =
    h.kind === 'reentry'
      ? 're-entry'
      : h.kind === 'signoff'
        ? 'signed off, project complete'
        : h.kind === 'refreeze'
          ? 're-freeze of frozen files'
          : h.kind === 'waiver-acceptance'
            ? 'waiver acceptance'
            : h.kind;
  const gates = h.gateSummary ? ` (${h.gateSummary.passed} passed, ${h.gateSummary.failed} failed, ${h.gateSummary.manual} manual)` : '';
  const by = h.approver || h.signedBy ? ` by ${personLabel(h.approver, h.signedBy)}` : '';
  const why = h.justification ? `: ${JSON.stringify(h.justification)}` : '';
  return `${h.from} → ${h.to} ${kind}${gates}${by}${why}`;
}

/** The human dashboard: header, phase table, recent history. Empty values show as a dash, never "null". */
export function renderStatus(v: StatusView, s: Style): string {
  const lines = [
    `${s.bold(v.project)} ${s.dim(`(profile ${v.profile}, type ${v.projectType ?? '—'}, started ${formatTimestamp(v.createdAt)})`)}`,
    `Current phase: ${s.bold(v.currentPhase.display)} [${v.currentPhase.id}] ${statusColour(s, v.currentPhase.status, v.currentPhase.status)}${v.currentPhase.terminal ? (v.currentPhase.status === 'completed' ? ' (final phase) — project complete' : ' (final phase)') : ''}`,
    `Progress: ${v.progress.done}/${v.progress.total} phases done (${v.progress.completed} completed, ${v.progress.skipped} skipped), ${v.progress.percent}%`,
    '',
  ];
  const rows = v.phases.map((p) => [
    `${p.current ? '▶' : ' '} ${p.id}`,
    p.display,
    p.status,
    formatDate(p.enteredAt),
    formatDate(p.completedAt),
    `${p.slug}/`,
    String(p.artifacts.files),
    p.artifacts.required === 0 ? '—' : `${p.artifacts.requiredPresent}/${p.artifacts.required}`,
  ]);
  lines.push(
    ...textTable(['  Id', 'Phase', 'Status', 'Entered', 'Completed', 'Artifact folder', 'Files', 'Required'], rows, (row, col, cell) =>
      col === 2 ? statusColour(s, row[2], cell) : row[0].startsWith('▶') ? s.bold(cell) : cell,
    ),
  );
  lines.push('', s.bold(`History (last ${v.history.length} of ${v.historyTotal})`));
  if (v.history.length === 0) lines.push(s.dim('  (no transitions yet)'));
  for (const h of v.history) lines.push(`  ${formatTimestamp(h.at)}  ${describeTransition(h)}`);
  return lines.join('\n');
}
