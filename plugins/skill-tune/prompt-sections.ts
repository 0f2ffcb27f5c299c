import { join } from 'pathe';
import type { Host } from '../../core/index.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { fenced, quoted } from './prompt-templates.ts';
import { SKILL_FILE } from './read-skill.ts';
import { listTree } from './skill-folders.ts';

/** Pieces of prompt text shared by the execute, evaluate and improve prompts. */
const FILE_LIMIT = 16 * 1024;
const SECTION_LIMIT = 64 * 1024;

/**
 * Each skill with its folder and its SKILL.md in full (other files are listed, not inlined), always
 * fenced. The evaluator gets it quoted as material to judge; the executor, whose job is to follow
 * it, gets it as the instructions it is (`follow`).
 */
export async function skillsSection(host: Host, skills: { id: string; name: string; dir: string }[], o: { follow?: boolean } = {}): Promise<string> {
  const parts: string[] = [];
  for (const s of skills) {
    const files = await listTree(host, s.dir, { special: 'skip' });
    const text = await host.readText(join(s.dir, SKILL_FILE));
    const others = files.filter((f) => f !== SKILL_FILE);
    parts.push(
      [
        `### Skill ${inline(s.name)} (${s.id})`,
        '',
        `Folder: ${inline(s.dir)}`,
        ...(others.length ? ['', `Other files in the folder: ${others.map(inline).join(', ')}`] : []),
        '',
        o.follow ? `${SKILL_FILE} (the instructions to follow):\n\n${fenced(text, 'markdown')}` : quoted(text, SKILL_FILE, 'markdown'),
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
      listed.push(`- ${inline(file)} (${bytes.byteLength} bytes${binary ? ', binary' : ', not shown'})`);
      continue;
    }
    let text = new TextDecoder().decode(bytes);
    const cap = Math.min(FILE_LIMIT, budget - used);
    if (text.length > cap) text = `${text.slice(0, cap)}\n[... ${text.length - cap} more characters not shown]`;
    used += text.length;
    parts.push(`#### ${inline(file)}\n\n${fenced(text)}`);
  }
  if (listed.length) parts.push(`Also in the folder:\n${listed.join('\n')}`);
  return { text: parts.join('\n\n'), count: files.length };
}

/**
 * Earlier scores and weaknesses, so the evaluator grades consistently across iterations. The
 * scores are sluice's own; everything an AI wrote (weaknesses, notes, file names) is quoted.
 */
export function historySection(state: IterationState, round: number): string {
  const earlier = state.iterations.filter((it) => it.round < round);
  if (earlier.length === 0) return 'None: this is the first iteration.';
  const lines: string[] = [];
  for (const it of earlier) {
    const e = it.evaluation;
    const details: string[] = [];
    if (!e || e.score === null) {
      lines.push(`- Iteration ${it.round}: no score`);
      details.push(it.note ?? 'failed');
    } else {
      lines.push(`- Iteration ${it.round}: score ${e.score}${it.improvement ? `; then ${it.improvement.status.replace('_', ' ')}` : ''}`);
      if (e.weaknesses.length) details.push(`weaknesses: ${e.weaknesses.slice(0, 3).join('; ')}`);
      if (it.improvement?.changed_files.length) details.push(`changed: ${it.improvement.changed_files.join(', ')}`);
    }
    if (details.length) lines.push('', quoted(details.join('\n'), `What was recorded for iteration ${it.round}`), '');
  }
  return lines.join('\n').trim();
}

/** A name or path on one line, quoted: a file name cannot add prompt lines or close a fence. */
export const inline = (name: string) => JSON.stringify(name);

export const bulletList = (items: string[], empty = '- (none)') => (items.length ? items.map((s) => `- ${s}`).join('\n') : empty);
