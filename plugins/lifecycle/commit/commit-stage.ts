import { SluiceError } from '../../../core/index.ts';
import { recheckEvidence, routeBackStale } from '../evidence/recheck-evidence.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { readCommitRequest } from '../readers/commit-request-reader.ts';
import { findRequirementCommits, readGitCommit, type GitCommit } from '../readers/git-commit-reader.ts';
import { applyTransition, assertCanRecord, readWorkflowState, type TransitionResult } from '../record-stage.ts';
import type { CommitIntent, WorkflowState } from '../state/workflow-state-schema.ts';
import { applyEvent, checkCanRecord } from '../apply-event.ts';
import { authorizeCommit, type AuthorizeOptions } from './authorize-commit.ts';
import { computeCommitIntent, intentMismatch } from './commit-intent.ts';
import { foreignHead, treeChanges } from './commit-history.ts';
import { contentMismatches } from '../evidence/committed-content.ts';
import { hooklessGitConfig } from '../workspace/hookless-git.ts';
import { createCommit, filesToCommit, previewCommit, withCommitLock } from './create-commit.ts';
import { refuseSecretPaths } from './secret-paths.ts';
import type { WorkspaceSnapshot } from '../workspace/workspace-fingerprint.ts';

/**
 * The commit stage, done by sluice itself: read `commit-request.json`, re-check every gate's evidence,
 * record COMMIT_PENDING, get authorization (COMMIT_NOT_AUTHORIZED leaves the requirement pending),
 * re-check again, record the intent (tree, parent, message, paths), commit exactly the requested paths,
 * and record COMMITTED only for a commit that matches the intent. A commit made just before a crash is
 * found by its trailer and recorded if it matches the intent; any other is COMMIT_UNRECOGNIZED.
 * `seen`: the workspace as the caller saw it right before, with nothing run or waited for since (the runner,
 * after the commit delegate wrote its request); the preview and the COMMIT_PENDING record describe it.
 */
export async function runCommitStage(
  lc: LifecycleContext,
  slug: string,
  caller: string | null,
  authorize: AuthorizeOptions = {},
  seen?: WorkspaceSnapshot | null,
): Promise<TransitionResult> {
  const state = await assertCanRecord(lc, slug, 'commit', caller);
  const request = await readCommitRequest(lc.host, lc.root, state.artifact_dir);
  if (state.status === 'COMMIT_PENDING') {
    const earlier = await committedBeforeCrash(lc, slug, state.commit_intent);
    if (earlier) return recordCommitted(lc, slug, caller, earlier, { source: 'recovered', mode: 'commit-intent', owner: earlier.author });
  }
  const preview = await previewCommit(lc, slug, request, seen);
  await withCommitLock(lc, () =>
    refuseStale(
      lc,
      slug,
      caller,
      state,
      preview.files.map((f) => f.path),
    ),
  );
  await refuseSecretPaths(preview, request.file, authorize.io);
  if (state.status !== 'COMMIT_PENDING') {
    // The caller's snapshot is the workspace the preview and its evidence check described; else the one now.
    const fingerprint = seen === undefined ? await lc.fingerprint() : (seen?.fingerprint ?? null);
    await applyTransition(lc, slug, caller, (s) =>
      applyEvent(s, { kind: 'verdict', stage: 'commit', verdict: 'COMMIT_PENDING', evidence: request.file }, { now: lc.now(), fingerprint, caller }),
    );
  }
  const authorization = await authorizeCommit(lc, preview, authorize);
  return withCommitLock(lc, async () => {
    // Right before git commit, again: time passed while a person read the preview.
    const config = await hooklessGitConfig(lc.host, lc.root);
    const committing = (await filesToCommit(lc, request)).map((f) => f.path);
    const current = await readWorkflowState(lc, slug);
    await refuseStale(lc, slug, caller, current, committing);
    const intent = await computeCommitIntent(lc, slug, request, config);
    // The tree itself, as git will commit it, must hold what the gates saw (a file changed after the check above shows here).
    const differs = await contentMismatches(lc, current, { rev: intent.tree, changed: await treeChanges(lc, intent, config) }, config);
    if (differs.length > 0)
      await routeBackStale(lc, slug, caller, { reasons: differs.map((d) => `${d} (in the tree about to be committed)`), fromImplement: false });
    await recordIntent(lc, slug, caller, intent);
    const commit = await createCommit(lc, intent, config);
    const recorded = await recordCommitted(lc, slug, caller, commit, authorization);
    await refuseForeignHead(lc, slug, commit.sha);
    return recorded;
  });
}

async function refuseStale(lc: LifecycleContext, slug: string, caller: string | null, state: WorkflowState, committing: string[]): Promise<void> {
  const stale = await recheckEvidence(lc, state, committing);
  if (stale) await routeBackStale(lc, slug, caller, stale);
}

/** Journals what is about to be committed, before `git commit` runs. */
export function recordIntent(lc: LifecycleContext, slug: string, caller: string | null, intent: CommitIntent): Promise<TransitionResult> {
  return applyTransition(lc, slug, caller, (s) => {
    const refused = checkCanRecord(s, 'commit', caller);
    if (refused) return refused;
    if (s.status !== 'COMMIT_PENDING')
      return { ok: false, rule: 'commit-needs-pending', code: 'LIFECYCLE_RULE', message: `rule commit-needs-pending: status is ${s.status ?? 'new'}` };
    return { ok: true, state: { ...s, commit_intent: intent, updated_at: intent.at }, row: 'commit-intent' };
  });
}

type AuthorizedBy = NonNullable<WorkflowState['commit']>['authorized_by'];

async function recordCommitted(lc: LifecycleContext, slug: string, caller: string | null, commit: GitCommit, by: AuthorizedBy): Promise<TransitionResult> {
  const fingerprint = await lc.fingerprint();
  const record = { sha: commit.sha, message: commit.message, paths: commit.paths, authorized_by: by, at: lc.now() };
  return applyTransition(lc, slug, caller, (s) =>
    applyEvent(
      s,
      { kind: 'verdict', stage: 'commit', verdict: 'COMMITTED', commit: record, evidence: `git:${commit.sha}` },
      { now: lc.now(), fingerprint, caller },
    ),
  );
}

/**
 * sluice's commit must still be in HEAD's history once recorded: something that amended or replaced it
 * (an agent's process, a hook of another tool) left a HEAD sluice did not make. The requirement stays
 * recorded as sluice's commit; the foreign HEAD is COMMIT_UNRECOGNIZED, and `status` keeps showing it.
 */
async function refuseForeignHead(lc: LifecycleContext, slug: string, sha: string): Promise<void> {
  const foreign = await foreignHead(lc, sha);
  if (foreign)
    throw new SluiceError('COMMIT_UNRECOGNIZED', {
      message: `sluice committed ${slug} as ${sha.slice(0, 12)}, but HEAD is now ${foreign.slice(0, 12)}, which does not contain it: a commit sluice did not make replaced it; a person decides what it means`,
      data: { sha: foreign, committed: sha },
    });
}

export function unrecognized(slug: string, commit: GitCommit, why: string): SluiceError {
  return new SluiceError('COMMIT_UNRECOGNIZED', {
    message: `commit ${commit.sha.slice(0, 12)} carries Lifecycle-Requirement: ${slug} but is not the commit sluice recorded the intent for: ${why}; ${slug} is left for a person to decide`,
    data: { sha: commit.sha, reason: why },
  });
}

/** The requirement's newest trailer commit, if it is the one the recorded intent describes; any other is refused. */
async function committedBeforeCrash(lc: LifecycleContext, slug: string, intent: CommitIntent | null | undefined): Promise<GitCommit | undefined> {
  const [sha] = await findRequirementCommits(lc.host, lc.root, slug);
  if (!sha) return undefined;
  const commit = await readGitCommit(lc.host, lc.root, sha);
  const mismatch = intentMismatch(intent, commit);
  if (mismatch) throw unrecognized(slug, commit, mismatch);
  return commit;
}
