import type { Style } from '../../../core/index.ts';
import { approvalId } from '../gating/gate-verdict.ts';
import type { PhaseDefinition } from '../registry/registry-schema.ts';
import { requiredArtifacts } from '../registry/required-artifacts.ts';
import type { ProjectType } from '../state/state-schema.ts';
import type { NextReport } from '../transition/next-phase.ts';
import { gateRef, phaseData, phaseTitle, renderResults, renderSummary, runData } from './render-results.ts';
import { personLabel } from '../signing/person-label.ts';

/** What to do in the phase just entered: the seed's "next phase guidance". */
export function renderGuidance(p: PhaseDefinition, artifactDir: string, s: Style, projectType?: ProjectType | null): string[] {
  const skills = [...(p.skills?.primary ?? []), ...(p.skills?.secondary ?? [])];
  const required = requiredArtifacts(p, projectType)
    .filter((a) => a.applies)
    .map((a) => (a.root === 'repo' ? `${a.name} (repo root)` : a.name));
  return [
    `${s.bold(phaseTitle(p))}${p.description ? ` — ${p.description}` : ''}`,
    ...(skills.length ? [`  Skills: ${skills.join(', ')}`] : []),
    ...(required.length ? [`  Required artifacts: ${required.join(', ')}`] : []),
    `  Artifact folder: ${artifactDir}/`,
    ...(p.definition ? [`  Phase definition: ${p.definition}`] : []),
  ];
}

/** Human text and --json document for each outcome of the decision tree. */
export function renderNext(r: NextReport, s: Style): { human: string; data: unknown } {
  const data = {
    status: r.status,
    phase: phaseData(r.phase),
    next: phaseData(r.next),
    ...(r.run ? runData(r.run) : {}),
    unapproved: r.unapproved.map(gateRef),
    approvals: r.approvals,
    ...(r.entry ? { entry: r.entry } : {}),
    ...(r.artifactDir ? { artifactDir: r.artifactDir } : {}),
  };
  const lines: string[] = [];
  if (r.status === 'complete') {
    lines.push(`${s.green('Already complete')}: ${phaseTitle(r.phase)}, the final phase, is signed off. Run ${s.cyan('sluice status')} for the summary.`);
    return { human: lines.join('\n'), data };
  }
  lines.push(s.bold(`${phaseTitle(r.phase)} → ${r.next ? phaseTitle(r.next) : 'sign-off (final phase)'}`));
  if (r.run) lines.push(...renderResults(r.run, s), renderSummary(r.run, s));
  switch (r.status) {
    case 'blocked':
      lines.push(s.red(`BLOCKED: ${r.run!.blockers.length} MUST gate${r.run!.blockers.length > 1 ? 's' : ''} failed (marked ✗ above); fix them and run again`));
      break;
    case 'review-required':
      lines.push(
        s.yellow(`REVIEW REQUIRED: ${r.unapproved.length} manual gate${r.unapproved.length > 1 ? 's' : ''} need${r.unapproved.length > 1 ? '' : 's'} sign-off`),
      );
      for (const m of r.unapproved) lines.push(`  - ${s.cyan(approvalId(m))}  ${m.check ?? m.artifact ?? ''} ${s.dim(`(${m.severity})`)}`);
      lines.push(
        `Have the stakeholder review each, then: sluice next ${r.unapproved.map((m) => `--approve ${approvalId(m)}`).join(' ')} --signed-by NAME --confirmed`,
      );
      lines.push(
        r.perGateApproval
          ? s.dim('The profile requires an --approve per manual gate (sluice.per_gate_approval): --confirmed alone approves none.')
          : s.dim('Or, once every listed gate is reviewed: sluice next --signed-by NAME --confirmed (records an approval for each listed gate).'),
      );
      break;
    case 'dry-run':
      lines.push(
        s.green('Dry run complete -- all automated gates passed') +
          (r.approvals.length ? ` and ${r.approvals.length} manual gate${r.approvals.length > 1 ? 's' : ''} approved` : ''),
      );
      lines.push(
        r.next
          ? `Re-run with --confirmed to advance to ${phaseTitle(r.next)}.`
          : 'Re-run with --confirmed to sign off the final phase and complete the project.',
      );
      break;
    case 'signed-off':
      lines.push(
        `${s.green('Project complete')}: ${phaseTitle(r.phase)} signed off by ${r.entry?.confirmed_by}${r.approvals.length ? ` with ${r.approvals.length} manual gate${r.approvals.length > 1 ? 's' : ''} approved` : ''}.`,
      );
      break;
    case 'advanced':
      lines.push(
        `${s.green('Advanced')}: ${phaseTitle(r.phase)} completed, ${phaseTitle(r.next!)} is active (confirmed by ${personLabel(r.entry?.confirmed_by, r.entry?.signature?.principal)}).`,
      );
      lines.push(...renderGuidance(r.next!, r.artifactDir!, s, r.projectType));
      break;
  }
  return { human: lines.join('\n'), data };
}
