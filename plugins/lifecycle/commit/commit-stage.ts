import type { LifecycleContext } from '../lifecycle-context.ts';
import { readCommitRequest } from '../readers/commit-request-reader.ts';
import { findRequirementCommits, readGitCommit, type GitCommit } from '../readers/git-commit-reader.ts';
import { applyTransition, assertCanRecord, type TransitionResult } from '../record-stage.ts';
import type { WorkflowState } from '../state/workflow-state-schema.ts';
import { applyEvent } from '../transition-table.ts';
import { authorizeCommit, type AuthorizeOptions } from './authorize-commit.ts';
import { createCommit, previewCommit } from './create-commit.ts';
import { exactlyCovers } from './path-coverage.ts';

/**
 * The commit stage, done by sluice itself: read `commit-request.json`, record COMMIT_PENDING, get
 * authorization (COMMIT_NOT_AUTHORIZED leaves the requirement pending), commit exactly the requested
 * paths, read the commit back from git and record COMMITTED. A commit made just before a crash is found
 * by its trailer and recorded, never made twice.
 */
export async function runCommitStage(lc: LifecycleContext, slug: string, caller: string | null, authorize: AuthorizeOptions = {}): Promise<TransitionResult> {
  const state = await assertCanRecord(lc, slug, 'commit', caller);
  const request = await readCommitRequest(lc.host, lc.root, state.artifact_dir);
  if (state.status === 'COMMIT_PENDING') {
    const earlier = await committedBeforeCrash(lc, slug, request.paths);
    if (earlier) return recordCommitted(lc, slug, caller, earlier, { source: 'recovered', mode: 'git-history', owner: earlier.author });
  }
  const preview = await previewCommit(lc, slug, request);
  if (state.status !== 'COMMIT_PENDING') {
    const fingerprint = await lc.fingerprint();
    await applyTransition(lc, slug, caller, (s) => applyEvent(s, { kind: 'verdict', stage: 'commit', verdict: 'COMMIT_PENDING', evidence: request.file }, { now: lc.now(), fingerprint, caller }));
  }
  const authorization = await authorizeCommit(lc, preview, authorize);
  const commit = await createCommit(lc, slug, request);
  return recordCommitted(lc, slug, caller, commit, authorization);
}

type AuthorizedBy = NonNullable<WorkflowState['commit']>['authorized_by'];

async function recordCommitted(lc: LifecycleContext, slug: string, caller: string | null, commit: GitCommit, by: AuthorizedBy): Promise<TransitionResult> {
  const fingerprint = await lc.fingerprint();
  const record = { sha: commit.sha, message: commit.message, paths: commit.paths, authorized_by: by, at: lc.now() };
  return applyTransition(lc, slug, caller, (s) => applyEvent(s, { kind: 'verdict', stage: 'commit', verdict: 'COMMITTED', commit: record, evidence: `git:${commit.sha}` }, { now: lc.now(), fingerprint, caller }));
}

async function committedBeforeCrash(lc: LifecycleContext, slug: string, paths: string[]): Promise<GitCommit | undefined> {
  const [sha] = await findRequirementCommits(lc.host, lc.root, slug);
  if (!sha) return undefined;
  const commit = await readGitCommit(lc.host, lc.root, sha);
  return exactlyCovers(paths, commit.paths) ? commit : undefined;
}
