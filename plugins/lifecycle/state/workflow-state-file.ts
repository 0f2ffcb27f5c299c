import { join } from 'pathe';
import * as v from 'valibot';
import type { StateFile } from '../../../core/index.ts';
import { checkSlug } from '../slug.ts';
import { isForeignState, migratePrizmkitState, PrizmkitStateSchema } from './prizmkit-state-migration.ts';
import { workflowStateInvariant } from './workflow-state-invariant.ts';
import { WorkflowStateSchema } from './workflow-state-schema.ts';

/** Folder of all workflow states, relative to the project root. */
export const WORKFLOWS_DIR = '.prizmkit/state/workflows';

export function workflowStatePath(root: string, slug: string): string {
  return join(root, WORKFLOWS_DIR, `${checkSlug(slug)}.json`);
}

/**
 * The state file's format: sluice's workflow state, or a state PrizmKit wrote (v1–v4, the seed),
 * migrated on read into sluice's form; the next write stores the migrated form.
 */
export const WorkflowStateFileSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    if (!isForeignState(dataset.value)) return dataset.value;
    const foreign = v.safeParse(PrizmkitStateSchema, dataset.value);
    if (foreign.success) return migratePrizmkitState(foreign.output);
    const issue = foreign.issues[0];
    addIssue({ message: `not a sluice or PrizmKit workflow state: ${issue.message}`, ...(issue.path ? { path: issue.path } : {}) });
    return NEVER;
  }),
  WorkflowStateSchema,
);

/** The state file as the store sees it: path, schema and the invariant every write must keep. */
export function workflowStateFile(root: string, slug: string): StateFile<typeof WorkflowStateFileSchema> {
  return { path: workflowStatePath(root, slug), schema: WorkflowStateFileSchema, invariant: workflowStateInvariant };
}
