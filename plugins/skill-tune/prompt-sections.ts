import { join } from 'pathe';
import type { Host } from '../../core/index.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { fenced } from './prompt-templates.ts';
import { SKILL_FILE } from './read-skill.ts';
import { listTree } from './skill-folders.ts';

/** Pieces of prompt text shared by the execute, evaluate and improve prompts. */
const FILE_LIMIT = 16 * 1024;
const SECTION_LIMIT = 64 * 1024;

/** Each skill with its folder and its SKILL.md in full (other files are listed, not inlined). */
export async function skillsSection(host: Host, skills: { id: string; name: string; dir: string }[]): Promise<string> {
  const parts: string[] = [];
  for (const s of skills) {
    const files = await listTree(host, s.dir, { special: 'skip' });
    const text = await host.readText(join(s.dir, SKILL_FILE));
    const others = files.filter((f) => f !== SKILL_FILE);
    parts.push(
      [
        `### Skill "${s.name}" (${s.id})`,
        '',
        `Folder: \`${s.dir}\``,
        ...(others.length ? ['', `Other files in the folder: ${others.map((f) => `\`${f}\``).join(', ')}`] : []),
        '',
        `${SKILL_FILE}:`,
        '',
        fenced(text, 'markdown'),
      ].join('\n'),
    );
  }
  return parts.join('\n\n');
}

/** Text files of a folder inlined up to a budget; binary and overflow files are only listed. */
export async function filesSection(host: Host, dir: string, budget = SECTION_LIMIT): Promise<{ text: string; count: number }> {
  const files = await listTree(host, dir, { special: 'skip' });
  if (files.length === 0) return { text: '(no files)', count: 0 };
  const parts: string[] = [];
  const listed: string[] = [];
  let used = 0;
  for (const file of files) {
    const bytes = await host.readBytes(join(dir, file));
    const binary = bytes.subarray(0, 8000).includes(0);
    if (binary || used >= budget) {
      listed.push(`- \`${file}\` (${bytes.byteLength} bytes${binary ? ', binary' : ', not shown'})`);
      continue;
    }
    let text = new TextDecoder().decode(bytes);
    const cap = Math.min(FILE_LIMIT, budget - used);
    if (text.length > cap) text = `${text.slice(0, cap)}\n[... ${text.length - cap} more characters not shown]`;
    used += text.length;
    parts.push(`#### \`${file}\`\n\n${fenced(text)}`);
  }
  if (listed.length) parts.push(`Also in the folder:\n${listed.join('\n')}`);
  return { text: parts.join('\n\n'), count: files.length };
}

/** Earlier scores and weaknesses, so the evaluator grades consistently across iterations. */
export function historySection(state: IterationState, round: number): string {
  const lines = state.iterations
    .filter((it) => it.round < round)
    .map((it) => {
      const e = it.evaluation;
      if (!e || e.score === null) return `- Iteration ${it.round}: no score (${it.note ?? 'failed'})`;
      const weak = e.weaknesses.slice(0, 3).join('; ');
      const changed = it.improvement
        ? `; then ${it.improvement.status.replace('_', ' ')}${it.improvement.changed_files.length ? ` (${it.improvement.changed_files.join(', ')})` : ''}`
        : '';
      return `- Iteration ${it.round}: score ${e.score}${weak ? `; weaknesses: ${weak}` : ''}${changed}`;
    });
  return lines.length ? lines.join('\n') : 'None: this is the first iteration.';
}

export const bulletList = (items: string[], empty = '- (none)') => (items.length ? items.map((s) => `- ${s}`).join('\n') : empty);
