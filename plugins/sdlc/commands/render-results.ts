import type { GateResult, Style } from '../../../core/index.ts';
import { approvalId } from '../gating/gate-verdict.ts';
import type { PhaseGateRun } from '../gating/run-phase-gates.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';

const mark = (r: GateResult, s: Style) => {
  if (r.severity === 'INFO') return s.dim('i');
  if (r.passed === true) return s.green('✓');
  if (r.passed === null) return s.yellow('?');
  return r.severity === 'MUST' ? s.red('✗') : s.yellow('!');
};

export const phaseTitle = (p: PhaseDefinition) => p.display ?? `Phase ${String(p.id)}: ${p.name}`;

/** One line per result: mark, severity, gate, what was checked, and the message (with the approval id for manual rows). */
export function renderResults(run: PhaseGateRun, s: Style): string[] {
  const gateWidth = Math.min(18, Math.max(0, ...run.results.map((r) => r.gate.length)));
  return run.results.map((r) => {
    const what = r.artifact ?? r.check ?? '';
    const id = r.passed === null && r.severity !== 'INFO' ? ` ${s.cyan(`[${String(r.id)}]`)}` : '';
    return `  ${mark(r, s)} ${r.severity.padEnd(6)} ${r.gate.padEnd(gateWidth)} ${s.bold(what)}${id} ${s.dim(r.message)}`;
  });
}

export function renderSummary(run: PhaseGateRun, s: Style): string {
  const { passed, failed, manual } = run.summary;
  const parts = [
    s.green(`${passed} passed`),
    failed ? s.red(`${failed} failed`) : `${failed} failed`,
    manual ? s.yellow(`${manual} manual`) : `${manual} manual`,
  ];
  const warn = run.warnings.length ? `, ${run.warnings.length} warning${run.warnings.length > 1 ? 's' : ''} (SHOULD/MAY)` : '';
  return `Gates: ${parts.join(', ')}${warn}`;
}

/**
 * A result named in a list (blockers, warnings, manual, unapproved): the same object everywhere, with
 * the id `next --approve` takes and what was checked, so a script needs no second lookup in `results`.
 */
export const gateRef = (r: GateResult) => ({
  id: approvalId(r),
  gate: r.gate,
  check: r.check ?? r.artifact ?? '',
  severity: r.severity,
  message: r.message,
});

/** Plain-data form of a run for --json (the phase it ran in is the document's `phase` object). */
export function runData(run: PhaseGateRun) {
  return {
    summary: run.summary,
    results: run.results,
    blockers: run.blockers.map(gateRef),
    warnings: run.warnings.map(gateRef),
    manual: run.manual.map(gateRef),
  };
}

export const phaseData = (p: PhaseDefinition | undefined) =>
  p ? { id: String(p.id), name: p.name, display: p.display ?? p.name, slug: p.slug, order: p.order } : undefined;
