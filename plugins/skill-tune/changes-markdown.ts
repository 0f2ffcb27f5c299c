import type { ImprovementRecord } from './iteration-state-schema.ts';
import { fenced } from './prompt-templates.ts';

export interface FileDiff {
  id: string;
  file: string;
  before: string;
  after: string;
}

/** `iteration-N-changes.md`: what the improver did to the skills, as unified diffs, or why it was rolled back. */
export async function renderChangesMarkdown(round: number, r: ImprovementRecord, improverText: string, diffs: FileDiff[]): Promise<string> {
  const { createTwoFilesPatch } = await import('diff');
  const status = { applied: 'applied', unchanged: 'made no change', rolled_back: '**rolled back**', skipped: 'skipped' }[r.status];
  const lines = [`# Iteration ${round}: improvements`, '', `Targets: ${r.targets.join(', ')} · result: ${status}`, ''];
  if (r.reason) lines.push(`Reason: ${r.reason}`, '');
  if (diffs.length) {
    lines.push('## Changes', '');
    for (const d of diffs) {
      const patch = createTwoFilesPatch(`a/${d.id}/${d.file}`, `b/${d.id}/${d.file}`, d.before, d.after, undefined, undefined, { context: 3 });
      lines.push(`### ${d.id}/${d.file}`, '', fenced(patch.split('\n').slice(1).join('\n'), 'diff'), '');
    }
  }
  if (improverText.trim()) lines.push("## The improver's summary", '', improverText.trim(), '');
  return `${lines.join('\n').trimEnd()}\n`;
}
