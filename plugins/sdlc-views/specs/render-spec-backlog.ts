import type { Style } from '../../../core/index.ts';
import { SPEC_RISKS, SPEC_STATUSES, type SpecBacklog } from './spec-backlog-types.ts';
import { describeCounts } from './summarize-specs.ts';

/** The human view of `sluice specs`. */
export function renderSpecBacklog(b: SpecBacklog, s: Style): string {
  if (!b.specsFolder)
    return [
      s.bold(`Spec backlog: empty, ${b.repo} has no specs/ folder`),
      s.dim('  specs live in <repo>/specs/NNNN-name.md; pass --repo to scan another repo'),
    ].join('\n');
  const lines = [s.bold(`Spec backlog: ${b.total} spec${b.total === 1 ? '' : 's'} in ${b.repo}/specs`)];
  lines.push(`  Status: ${describeCounts(b.status, [...SPEC_STATUSES].reverse(), b.unknownStatus)}`);
  lines.push(`  Risk:   ${describeCounts(b.risk, SPEC_RISKS, b.unknownRisk)}`);
  const channels = Object.entries(b.byChannel);
  if (channels.length) lines.push(`  Channel: ${channels.map(([c, n]) => `${n} ${c}`).join(' · ')}`);
  if (Object.keys(b.unknownStatus).length) lines.push(s.yellow(`  Unknown status values are counted apart; known values are ${SPEC_STATUSES.join(', ')}.`));
  lines.push('', s.bold(`In flight (${b.inFlight.length})`));
  if (b.inFlight.length === 0) lines.push(s.dim('  (none)'));
  const idWidth = Math.max(4, ...b.inFlight.map((f) => (f.spec ?? '').length));
  for (const f of b.inFlight) {
    lines.push(`  ${(f.spec ?? '—').padEnd(idWidth)}  ${(f.risk ?? '—').padEnd(6)}  ${f.name ?? s.dim('(no name)')}  ${s.dim(f.file)}`);
  }
  if (b.invalid.length) {
    lines.push('', s.yellow(`Invalid frontmatter (${b.invalid.length})`));
    for (const i of b.invalid) lines.push(`  ${i.file}: ${i.message}`);
  }
  if (b.otherFiles.length) {
    lines.push('', s.dim(`Not specs, not counted (no frontmatter, not named NNNN-…) (${b.otherFiles.length})`));
    for (const f of b.otherFiles) lines.push(s.dim(`  ${f}`));
  }
  if (b.wipCap) {
    const verdict = b.wipCap.breached
      ? s.red(`breached: ${b.wipCap.inFlight} in flight, cap ${b.wipCap.cap}`)
      : s.green(`ok: ${b.wipCap.inFlight} in flight, cap ${b.wipCap.cap}`);
    lines.push('', `WIP cap ${verdict}`);
  }
  return lines.join('\n');
}
