import { join } from 'pathe';
import * as v from 'valibot';
import { jsonCodec, type Codec, type StateFile } from '../../../core/index.ts';
import { checkSlug } from '../slug.ts';
import { isForeignState, migratePrizmkitState, PrizmkitStateSchema } from './prizmkit-state-migration.ts';
import { unclaimCommit } from './unjournaled-claims.ts';
import { workflowStateInvariant } from './workflow-state-invariant.ts';
import { WorkflowStateSchema, type WorkflowState } from './workflow-state-schema.ts';

/** Folder of all workflow states, relative to the project root. */
export const WORKFLOWS_DIR = '.prizmkit/state/workflows';

export function workflowStatePath(root: string, slug: string): string {
  return join(root, WORKFLOWS_DIR, `${checkSlug(slug)}.json`);
}

/** PrizmKit (every version) names the commit stage `committer` in the seed's fields; sluice calls it `commit`. */
const PRIZMKIT_COMMIT = 'committer';
const SEED_STAGE_FIELDS = ['stage', 'next_stage'] as const;

/** The seed's stage fields with PrizmKit's `committer` read as sluice's `commit`. */
function readStageNames(raw: Record<string, unknown>): Record<string, unknown> {
  const rename = (s: unknown) => (s === PRIZMKIT_COMMIT ? 'commit' : s);
  const out: Record<string, unknown> = { ...raw };
  for (const f of SEED_STAGE_FIELDS) if (f in out) out[f] = rename(out[f]);
  if (Array.isArray(out.completed_stages)) out.completed_stages = out.completed_stages.map(rename);
  return out;
}

/**
 * The state file's format: sluice's workflow state, or a state PrizmKit wrote (v1–v4, the seed),
 * migrated on read into sluice's form; the next write stores the migrated form. A sluice state without
 * the journal entry it caches is a claim too: it never reads as committed (see unjournaled-claims.ts).
 */
export const WorkflowStateFileSchema = v.pipe(
  v.unknown(),
  v.rawTransform(({ dataset, addIssue, NEVER }) => {
    const raw = dataset.value;
    if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return raw;
    if (!isForeignState(raw)) {
      const named = readStageNames(raw as Record<string, unknown>);
      return 'journal' in named ? named : unclaimCommit(named);
    }
    const foreign = v.safeParse(PrizmkitStateSchema, raw);
    if (foreign.success) return migratePrizmkitState(foreign.output);
    const issue = foreign.issues[0];
    addIssue({ message: `not a sluice or PrizmKit workflow state: ${issue.message}`, ...(issue.path ? { path: issue.path } : {}) });
    return NEVER;
  }),
  WorkflowStateSchema,
);

/**
 * A state adopted from PrizmKit is written back in the names PrizmKit reads (`committer`), so the
 * project's own PrizmKit skills keep understanding it; a state sluice started uses sluice's names.
 */
export const workflowStateCodec: Codec = {
  name: 'json',
  parse: (text) => jsonCodec.parse(text),
  stringify(value) {
    const s = value as WorkflowState & { migrated_from?: unknown };
    if (!s || typeof s !== 'object' || s.migrated_from === undefined) return jsonCodec.stringify(value);
    const name = (st: string | null) => (st === 'commit' ? PRIZMKIT_COMMIT : st);
    return jsonCodec.stringify({ ...s, stage: name(s.stage), next_stage: name(s.next_stage), completed_stages: s.completed_stages.map(name) });
  },
};

/** The state file as the store sees it: path, schema and the invariant every write must keep. */
export function workflowStateFile(root: string, slug: string): StateFile<typeof WorkflowStateFileSchema> {
  return { path: workflowStatePath(root, slug), schema: WorkflowStateFileSchema, codec: workflowStateCodec, invariant: workflowStateInvariant };
}
