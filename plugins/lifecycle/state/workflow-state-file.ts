import { join } from 'pathe';
import type { StateFile } from '../../../core/index.ts';
import { checkSlug } from '../slug.ts';
import { workflowStateInvariant } from './workflow-state-invariant.ts';
import { WorkflowStateSchema } from './workflow-state-schema.ts';

/** Folder of all workflow states, relative to the project root. */
export const WORKFLOWS_DIR = '.prizmkit/state/workflows';

export function workflowStatePath(root: string, slug: string): string {
  return join(root, WORKFLOWS_DIR, `${checkSlug(slug)}.json`);
}

/** The state file as the store sees it: path, schema and the invariant every write must keep. */
export function workflowStateFile(root: string, slug: string): StateFile<typeof WorkflowStateSchema> {
  return { path: workflowStatePath(root, slug), schema: WorkflowStateSchema, invariant: workflowStateInvariant };
}
