import * as v from 'valibot';
import { SluiceError, type Host } from '../../../core/index.ts';
import { artifactInvalid, readArtifactText, validateArtifact } from './read-artifact.ts';

/**
 * Task markers in `{artifact_dir}/plan.md`, one list item per task:
 *
 *   - [ ] [T-001] Parse the config file
 *   - [x] [T-002] Reject unknown keys
 *
 * `*`, `+` and numbered items, `[X]`, and ids in bold or backticks are tolerated; markers inside code
 * fences are not tasks. Ids must be unique. The plan is ready with one task or more; the implement
 * stage is done when every task is checked.
 */
export const PLAN = 'plan.md';
export const SPEC = 'spec.md';

export const PlanTasksSchema = v.pipe(
  v.array(v.object({ id: v.pipe(v.string(), v.regex(/^T-\d{3,}$/)), done: v.boolean(), title: v.string() })),
  v.minLength(1, 'plan.md has no task markers like "- [ ] [T-001] title"'),
  v.check(
    (tasks) => repeatedId(tasks) === undefined,
    (issue) => `task id ${repeatedId(issue.input as { id: string }[])} appears twice`,
  ),
);
export type PlanTask = v.InferOutput<typeof PlanTasksSchema>[number];

function repeatedId(tasks: readonly { id: string }[]): string | undefined {
  const seen = new Set<string>();
  for (const { id } of tasks) {
    if (seen.has(id)) return id;
    seen.add(id);
  }
  return undefined;
}

const MARKER = /^\[( |x|X)\]\s+(?:\*\*|`)?\[?(T-\d{3,})\]?(?:\*\*|`)?:?\s*(.*)$/;

export async function readPlanTasks(host: Host, root: string, artifactDir: string): Promise<{ file: string; tasks: PlanTask[] }> {
  const file = `${artifactDir}/${PLAN}`;
  const text = await readArtifactText(host, root, file);
  return { file, tasks: await parsePlanTasks(text, file) };
}

export async function parsePlanTasks(text: string, file: string): Promise<PlanTask[]> {
  const { default: MarkdownIt } = await import('markdown-it');
  const tokens = new MarkdownIt().parse(text, {});
  const tasks: PlanTask[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (tokens[i].type !== 'list_item_open') continue;
    const inline = tokens.slice(i + 1, i + 4).find((t) => t.type === 'inline');
    const first = inline?.content.split('\n')[0].trim() ?? '';
    const m = MARKER.exec(first);
    if (m) tasks.push({ id: m[2], done: m[1] !== ' ', title: m[3].trim() });
  }
  return validateArtifact(PlanTasksSchema, tasks, file);
}

/** The implement stage's evidence: every task of the plan is checked. */
export async function readImplementedPlan(host: Host, root: string, artifactDir: string): Promise<{ file: string; tasks: PlanTask[] }> {
  const plan = await readPlanTasks(host, root, artifactDir);
  const open = plan.tasks.filter((t) => !t.done).map((t) => t.id);
  if (open.length > 0) throw new SluiceError('ARTIFACT_MISSING', { file: plan.file, field: 'tasks', message: `task${open.length > 1 ? 's' : ''} ${open.join(', ')} not checked yet` });
  return plan;
}

/** The plan stage's evidence: a non-empty spec.md and a plan with tasks. */
export async function readPlanReady(host: Host, root: string, artifactDir: string): Promise<{ file: string; tasks: PlanTask[] }> {
  const spec = `${artifactDir}/${SPEC}`;
  if ((await readArtifactText(host, root, spec)).trim() === '') throw artifactInvalid(spec, undefined, 'spec.md is empty');
  return readPlanTasks(host, root, artifactDir);
}
