import * as v from 'valibot';
import { parseDataText, SluiceError, validateData, yamlCodec, type Host } from '../../../core/index.ts';
import { STAGES, type Stage } from '../transition-table.ts';

/**
 * The bundled stage prompts, `skills/lifecycle/<stage>.md`: YAML frontmatter (this schema) and a body
 * with `{{placeholders}}`. Every prompt starts with `Stage:`, `Requirement:` and `Artifact directory:`
 * lines, which scripted delegates (and logs) match on.
 */
export const StagePromptFrontmatterSchema = v.object({
  stage: v.picklist(STAGES),
  skill: v.string(),
  mode: v.picklist(['write', 'analysis']),
  description: v.string(),
  /** Artifacts the agent writes itself (documentation only). */
  writes: v.optional(v.array(v.string())),
  /** For analysis stages: the artifact sluice writes from the reply. */
  output: v.optional(v.string()),
  output_mode: v.optional(v.picklist(['append', 'replace'])),
  output_format: v.optional(v.picklist(['markdown', 'json'])),
});

export const PROMPT_VARIABLES = ['slug', 'stage', 'skill', 'artifact_dir', 'situation', 'changed_files', 'previous_error'] as const;
export type PromptVariables = Record<(typeof PROMPT_VARIABLES)[number], string>;

export interface StagePrompt {
  meta: v.InferOutput<typeof StagePromptFrontmatterSchema>;
  body: string;
  file: string;
}

const cache = new Map<string, Promise<StagePrompt>>();

export function loadStagePrompt(host: Host, stage: Stage): Promise<StagePrompt> {
  const file = host.asset('skills', 'lifecycle', `${stage}.md`);
  let pending = cache.get(file);
  if (!pending) {
    pending = readStagePrompt(host, file, stage);
    pending.catch(() => cache.delete(file));
    cache.set(file, pending);
  }
  return pending;
}

async function readStagePrompt(host: Host, file: string, stage: Stage): Promise<StagePrompt> {
  const text = await host.readText(file);
  const m = /^---\r?\n([\s\S]*?)\r?\n---\r?\n([\s\S]*)$/.exec(text);
  if (!m) throw new SluiceError('STATE_INVALID', { file, message: 'stage prompt has no YAML frontmatter' });
  const meta = validateData(StagePromptFrontmatterSchema, parseDataText(m[1], yamlCodec, file), file);
  if (meta.stage !== stage) throw new SluiceError('STATE_INVALID', { file, field: 'stage', message: `prompt is for ${meta.stage}, expected ${stage}` });
  const unknown = [...m[2].matchAll(/\{\{(\w+)\}\}/g)].map((x) => x[1]).filter((name) => !(PROMPT_VARIABLES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new SluiceError('STATE_INVALID', { file, message: `unknown placeholder {{${unknown[0]}}}` });
  return { meta, body: m[2], file };
}

export function renderStagePrompt(prompt: StagePrompt, vars: PromptVariables): string {
  return (
    prompt.body
      .replace(/\{\{(\w+)\}\}/g, (_, name: keyof PromptVariables) => vars[name])
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
