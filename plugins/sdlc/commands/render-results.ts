import type { GateResult, Style } from '../../../core/index.ts';
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

/** Plain-data form of a run for --json. */
export function runData(run: PhaseGateRun) {
  return {
    phase: run.phase,
    summary: run.summary,
    results: run.results,
    blockers: run.blockers.map((r) => r.id ?? r.gate),
    warnings: run.warnings.map((r) => r.id ?? r.gate),
    manual: run.manual.map((r) => ({ id: r.id, gate: r.gate, check: r.check ?? r.artifact, severity: r.severity })),
  };
}

export const phaseData = (p: PhaseDefinition | undefined) =>
  p ? { id: String(p.id), name: p.name, display: p.display ?? p.name, slug: p.slug, order: p.order } : undefined;
