import * as v from 'valibot';
import { loadBundledPrompt, type Host } from '../../core/index.ts';

/**
 * The bundled prompts in `skills/skill-tune/` (markdown + frontmatter). Their first body line,
 * `[sluice tune] role=R iteration=N skill=S attempt=A`, lets a delegate script match each call.
 */
export type PromptRole = 'execute' | 'evaluate' | 'improve';

/** The frontmatter documents the prompt (name, description, mode); only `role` is relied on. */
const TunePromptFrontmatterSchema = v.looseObject({ role: v.picklist(['execute', 'evaluate', 'improve']) });

export async function loadPrompt(host: Host, role: PromptRole): Promise<string> {
  return (await loadBundledPrompt(host, ['skills', 'skill-tune', `${role}.md`], TunePromptFrontmatterSchema)).body;
}

/** A text block for a prompt: fenced with a fence longer than any backtick run inside it. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}
