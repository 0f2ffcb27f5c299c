import type { WorkflowState } from './workflow-state-schema.ts';

/**
 * Rules between two consecutive versions of a state file, checked by the store before every write:
 * artifact_dir is fixed once set; completed_stages only grows, except when a newly recorded reroute
 * removes exactly the stages that disappear; counters never go down except through such a reroute;
 * reroutes are append-only; a committed requirement stays committed.
 */
export function workflowStateInvariant(before: WorkflowState, after: WorkflowState): string | undefined {
  if (after.artifact_dir !== before.artifact_dir) return `artifact_dir is fixed at ${before.artifact_dir}, refusing ${after.artifact_dir}`;
  if (after.schema_version !== before.schema_version) return 'schema_version cannot change';
  if (after.reroutes.length < before.reroutes.length || before.reroutes.some((r, i) => JSON.stringify(r) !== JSON.stringify(after.reroutes[i]))) {
    return 'reroutes is append-only';
  }
  const newReroutes = after.reroutes.slice(before.reroutes.length);
  if (newReroutes.length > 1) return 'one update records at most one reroute';
  const reroute = newReroutes[0];
  const removed = reroute?.removed ?? [];
  const kept = before.completed_stages.filter((s) => !removed.includes(s));
  const gone = before.completed_stages.filter((s) => !after.completed_stages.includes(s));
  if (gone.some((s) => !removed.includes(s))) return `completed_stages may only shrink through a recorded reroute (would drop ${gone.join(', ')})`;
  if (kept.some((s, i) => after.completed_stages[i] !== s)) return 'completed_stages must keep its order and only grow at the end';
  if (after.repair_round < before.repair_round) return `repair_round cannot go down (${before.repair_round} → ${after.repair_round})`;
  if (!reroute && after.review_round < before.review_round) return `review_round cannot go down without a recorded reroute`;
  if (!reroute && after.env_recovery_round < before.env_recovery_round) return `env_recovery_round cannot go down without a recorded reroute`;
  if (before.status === 'COMMITTED' && (after.status !== 'COMMITTED' || after.commit?.sha !== before.commit?.sha))
    return 'a committed requirement cannot change';
  if (after.status === 'COMMITTED' && after.commit === null) return 'COMMITTED needs a commit record';
  return undefined;
}
