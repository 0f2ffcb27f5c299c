import type { GateResult } from '../../../core/index.ts';

/** A Markdown job summary of one gate run, for `$GITHUB_STEP_SUMMARY` (rendered on the run's page). */
const cell = (s: string) =>
  s
    .replace(/[\r\n]+/g, ' ')
    .replace(/\|/g, '\\|')
    .replace(/[<>&]/g, (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[c]!);

const status = (r: GateResult) =>
  r.severity === 'INFO' ? 'ℹ️ info' : r.passed === true ? '✅ pass' : r.passed === null ? '✋ manual' : r.severity === 'MUST' ? '❌ fail' : '⚠️ warn';

export interface SummaryInput {
  command: string;
  project: string;
  phaseTitle: string;
  verdict: string;
  results: readonly GateResult[];
}

export function jobSummary(s: SummaryInput): string {
  const rows = s.results.map((r) => `| ${status(r)} | ${r.severity} | ${cell(r.gate)} | ${cell(String(r.artifact ?? r.check ?? ''))} | ${cell(r.message)} |`);
  return [
    `### sluice ${s.command}: ${cell(s.phaseTitle)} (${cell(s.project)})`,
    '',
    `**${cell(s.verdict)}**`,
    '',
    '| | Severity | Gate | Checked | Result |',
    '|---|---|---|---|---|',
    ...rows,
    '',
  ].join('\n');
}
