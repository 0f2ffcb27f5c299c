import { firstIncompleteStage, STAGE_SKILLS, STAGES, type Stage } from '../transition-table.ts';
import { completionResult, completionStatus } from './stage-completion.ts';

/**
 * A sluice state file without the journal entry it caches (written before journals, or left after its
 * journal was deleted) proves nothing by itself: its stages are claims that adoption re-reads from their
 * artifacts. A commit cannot be re-read: nothing in git shows sluice was authorized to make it. So such a
 * file never reads as committed; the claim is kept in `claimed_commit` for the report, and a person adopts
 * the commit (`sluice lifecycle adopt-commit`) once its content is checked. Raw, unvalidated input: anything
 * unexpected is left for the schema to refuse.
 */
export function unclaimCommit(raw: Record<string, unknown>): Record<string, unknown> {
  const completed = raw.completed_stages;
  if (!Array.isArray(completed) || (raw.status !== 'COMMITTED' && !completed.includes('commit'))) return raw;
  const kept = completed.filter((s) => s !== 'commit') as Stage[];
  const last = [...STAGES].reverse().find((s) => kept.includes(s));
  const results = raw.results && typeof raw.results === 'object' ? { ...(raw.results as Record<string, unknown>) } : raw.results;
  if (results && typeof results === 'object') delete (results as Record<string, unknown>).commit;
  const next = firstIncompleteStage(kept) ?? 'commit';
  const retro = (results as Record<string, { stage_result?: never } | undefined> | undefined)?.retrospective?.stage_result ?? null;
  return {
    ...raw,
    stage: last ?? null,
    status: last ? completionStatus(last) : null,
    stage_result: last ? completionResult(last, retro) : null,
    completed_stages: kept,
    next_stage: next,
    resume_from: STAGE_SKILLS[next],
    results,
    commit: null,
    commit_intent: null,
    claimed_commit: { status: raw.status ?? null, commit: raw.commit ?? null },
  };
}
