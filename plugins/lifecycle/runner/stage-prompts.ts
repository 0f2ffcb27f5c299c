import * as v from 'valibot';
import { fillPlaceholders, loadBundledPrompt, SluiceError, type BundledPrompt, type Host } from '../../../core/index.ts';
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

export type StagePrompt = BundledPrompt<v.InferOutput<typeof StagePromptFrontmatterSchema>>;

/** `skills/lifecycle/<stage>.md`, checked to be that stage's prompt and to use only the known placeholders. */
export async function loadStagePrompt(host: Host, stage: Stage): Promise<StagePrompt> {
  const prompt = await loadBundledPrompt(host, ['skills', 'lifecycle', `${stage}.md`], StagePromptFrontmatterSchema);
  const { meta, body, file } = prompt;
  if (meta.stage !== stage) throw new SluiceError('STATE_INVALID', { file, field: 'stage', message: `prompt is for ${meta.stage}, expected ${stage}` });
  const unknown = [...body.matchAll(/\{\{(\w+)\}\}/g)].map((x) => x[1]).filter((name) => !(PROMPT_VARIABLES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new SluiceError('STATE_INVALID', { file, message: `unknown placeholder {{${unknown[0]}}}` });
  return prompt;
}

export function renderStagePrompt(prompt: StagePrompt, vars: PromptVariables): string {
  return (
    fillPlaceholders(prompt.body, vars)
      .replace(/\n{3,}/g, '\n\n')
      .trimEnd() + '\n'
  );
}
