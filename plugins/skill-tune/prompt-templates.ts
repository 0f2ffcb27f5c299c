import { SluiceError, type Host } from '../../core/index.ts';

/**
 * The bundled prompts in `skills/skill-tune/` (markdown + frontmatter). Their first body line,
 * `[sluice tune] role=R iteration=N skill=S attempt=A`, lets a delegate script match each call.
 */
export type PromptRole = 'execute' | 'evaluate' | 'improve';

const cache = new Map<PromptRole, string>();

export async function loadPrompt(host: Host, role: PromptRole): Promise<string> {
  const hit = cache.get(role);
  if (hit !== undefined) return hit;
  const path = host.asset('skills', 'skill-tune', `${role}.md`);
  const text = await host.readText(path);
  const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---\r?\n/, '');
  cache.set(role, body);
  return body;
}

/** Fills `{{name}}` placeholders in one pass (inserted text is never re-scanned). */
export function renderPrompt(template: string, values: Record<string, string | number>): string {
  return template.replace(/\{\{(\w+)\}\}/g, (_all, name: string) => {
    const value = values[name];
    if (value === undefined) throw new SluiceError('INTERNAL', { message: `prompt placeholder {{${name}}} has no value` });
    return String(value);
  });
}

/** A text block for a prompt: fenced with a fence longer than any backtick run inside it. */
export function fenced(text: string, lang = ''): string {
  const longest = Math.max(2, ...[...text.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  return `${fence}${lang}\n${text.endsWith('\n') ? text : `${text}\n`}${fence}`;
}
