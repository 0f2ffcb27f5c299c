import { join } from 'pathe';
import { realPathInside, type DelegateResult, type Host } from '../../../core/index.ts';
import { artifactInvalid } from '../readers/read-artifact.ts';
import type { StagePrompt } from './stage-prompts.ts';

/**
 * Analysis stages cannot write files, so sluice writes their artifact from the reply: the review report
 * is appended (the reader takes the last Final Result), the commit request is the reply's JSON.
 */
export async function writeStageOutput(
  host: Host,
  root: string,
  artifactDir: string,
  prompt: StagePrompt,
  result: DelegateResult,
): Promise<string | undefined> {
  const name = prompt.meta.output;
  if (!name) return undefined;
  const file = `${artifactDir}/${name}`;
  // Through a symlinked artifact folder the write would land outside the project: refused.
  const path = await realPathInside(host, root, file, 'artifact');
  if (prompt.meta.output_format === 'json') {
    const value = result.json ?? parseJsonReply(result.text, file);
    await host.writeAtomic(path, `${JSON.stringify(value, null, 2)}\n`);
    return file;
  }
  const text = result.text.trim();
  if (text === '') throw artifactInvalid(file, undefined, 'the reply was empty');
  const before = prompt.meta.output_mode === 'append' && (await host.stat(path)) !== null ? (await host.readText(path)).trimEnd() : '';
  await host.mkdir(join(root, artifactDir));
  await host.writeAtomic(path, before === '' ? `${text}\n` : `${before}\n\n---\n\n${text}\n`);
  return file;
}

/** The JSON object of a reply, also when wrapped in a ```json fence or surrounded by a sentence. */
function parseJsonReply(text: string, file: string): unknown {
  const fenced = /```(?:json)?\s*\n([\s\S]*?)\n```/.exec(text);
  const candidate = fenced ? fenced[1] : text.slice(text.indexOf('{'), text.lastIndexOf('}') + 1);
  try {
    return JSON.parse(candidate);
  } catch {
    throw artifactInvalid(file, undefined, 'the reply is not a JSON object');
  }
}
