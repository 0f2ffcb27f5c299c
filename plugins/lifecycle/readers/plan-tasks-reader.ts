import * as v from 'valibot';
import { SluiceError, type Host } from '../../../core/index.ts';
import { hasProseMarker, keyValues, markdownSections, sectionsTitled } from './markdown-sections.ts';
import { artifactInvalid, readArtifact, validateArtifact, type ArtifactFormat, type ArtifactRef } from './read-artifact.ts';

/**
 * Task markers in `{artifact_dir}/plan.md`, one list item per task:
 *
 *   - [ ] [T-001] Parse the config file
 *   - [x] [T-002] Reject unknown keys
 *
 * PrizmKit's checkpoints (`- [ ] [CP-1] After Setup: ...`, `[CP-FINAL]`) are tasks too.
 * `*`, `+` and numbered items, `[X]`, and ids in bold or backticks are tolerated; markers inside code
 * fences are not tasks. Ids must be unique. The plan is ready with one task or more; the implement
 * stage is done when every task is checked.
 */
export const PLAN = 'plan.md';
export const SPEC = 'spec.md';

export const PlanTasksSchema = v.pipe(
  v.array(v.object({ id: v.pipe(v.string(), v.regex(/^(T-\d{3,}|CP-[A-Za-z0-9]+(-[A-Za-z0-9]+)*)$/)), done: v.boolean(), title: v.string() })),
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

const MARKER = /^\[( |x|X)\]\s+(?:\*\*|`)?\[?(T-\d{3,}|CP-[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*)\]?(?:\*\*|`)?:?\s*(.*)$/;

export async function readPlanTasks(host: Host, root: string, artifactDir: string): Promise<{ file: string; sha256: string; tasks: PlanTask[] }> {
  const file = `${artifactDir}/${PLAN}`;
  const { text, sha256 } = await readArtifact(host, root, file);
  return { file, sha256, tasks: await parsePlanTasks(text, file) };
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

/** Keys only PrizmKit v4's Independent Plan Review record has (v2/v3 have the section without them). */
const V4_REVIEW_KEYS = ['capability basis', 'continuation mode', 'reviewer replacements'];

/** The plan's format: PrizmKit v4 or v2 (an Independent Plan Review, as v2 and v3 write it), or sluice's. */
export async function planFormat(text: string): Promise<ArtifactFormat> {
  const review = sectionsTitled(await markdownSections(text), 'independent plan review', [2]);
  if (review.length === 0) return 'sluice';
  const keys = keyValues(review[review.length - 1].lines);
  return V4_REVIEW_KEYS.some((k) => keys.has(k)) ? 'prizmkit-v4' : 'prizmkit-v2';
}

/** Checkpoints (`[CP-1]`, `[CP-FINAL]`) as opposed to tasks (`[T-001]`). */
const isCheckpoint = (t: PlanTask) => t.id.startsWith('CP-');

/**
 * The implement stage's evidence: every task of the plan is checked. PrizmKit v4's implement skill marks
 * tasks only: its checkpoints are the reviewer's verification, so a v4 plan's open `[CP-n]` boxes do not
 * hold implement back. Earlier versions' implement updates the checkpoints too, so there they count.
 */
export async function readImplementedPlan(host: Host, root: string, artifactDir: string): Promise<{ file: string; sha256: string; tasks: PlanTask[] }> {
  const file = `${artifactDir}/${PLAN}`;
  const { text, sha256 } = await readArtifact(host, root, file);
  const plan = { file, sha256, tasks: await parsePlanTasks(text, file) };
  const v4 = (await planFormat(text)) === 'prizmkit-v4';
  const open = plan.tasks.filter((t) => !t.done && !(v4 && isCheckpoint(t))).map((t) => t.id);
  if (open.length > 0)
    throw new SluiceError('ARTIFACT_MISSING', {
      file: plan.file,
      field: 'tasks',
      message: `task${open.length > 1 ? 's' : ''} ${open.join(', ')} not checked yet`,
    });
  return plan;
}

/** The plan stage's evidence: a spec and a plan with tasks, or the PLAN_BLOCKED they declare. */
export interface PlanEvidence {
  file: string;
  tasks: PlanTask[];
  /** Why planning is blocked (PrizmKit: unresolved corrections, `[NEEDS CLARIFICATION]`); absent when ready. */
  blocked?: string;
  format: ArtifactFormat;
  artifacts: ArtifactRef[];
}

/**
 * PLAN_READY needs a non-empty spec.md and a plan with tasks. PrizmKit (v2+) plans end with an
 * `## Independent Plan Review` whose `Unresolved Corrections` must be none; any prose
 * `[NEEDS CLARIFICATION]` marker left in spec.md or plan.md also means PLAN_BLOCKED.
 */
export async function readPlanReady(host: Host, root: string, artifactDir: string): Promise<PlanEvidence> {
  const specFile = `${artifactDir}/${SPEC}`;
  const spec = await readArtifact(host, root, specFile);
  if (spec.text.trim() === '') throw artifactInvalid(specFile, undefined, 'spec.md is empty');
  const file = `${artifactDir}/${PLAN}`;
  const plan = await readArtifact(host, root, file);
  const tasks = await parsePlanTasks(plan.text, file);
  const review = sectionsTitled(await markdownSections(plan.text), 'independent plan review', [2]);
  const format = await planFormat(plan.text);
  const artifacts = [
    { file: specFile, sha256: spec.sha256, format },
    { file, sha256: plan.sha256, format },
  ];
  const reasons: string[] = [];
  for (const [f, text] of [
    [specFile, spec.text],
    [file, plan.text],
  ])
    if (await hasProseMarker(text, '[NEEDS CLARIFICATION]')) reasons.push(`${f} still has a [NEEDS CLARIFICATION] marker`);
  const unresolved = review.length > 0 ? keyValues(review[review.length - 1].lines).get('unresolved corrections')?.[0] : undefined;
  if (review.length > 0 && unresolved === undefined)
    throw artifactInvalid(file, 'Unresolved Corrections', 'the Independent Plan Review has no "Unresolved Corrections" line');
  if (unresolved !== undefined && !/^(none|0|no)\b/i.test(unresolved)) reasons.push(`${file}: Unresolved Corrections is ${JSON.stringify(unresolved)}`);
  return { file, tasks, format, artifacts, ...(reasons.length > 0 ? { blocked: reasons.join('; ') } : {}) };
}
