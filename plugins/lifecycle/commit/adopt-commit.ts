import { escapeControl, SluiceError, type CommandIO } from '../../../core/index.ts';
import { applyEvent } from '../apply-event.ts';
import { contentMismatches } from '../evidence/committed-content.ts';
import { gateEvidenceStale } from '../evidence/recheck-evidence.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';
import { covers } from './path-coverage.ts';
import { readCommitRequest } from '../readers/commit-request-reader.ts';
import { readGitCommit, type GitCommit } from '../readers/git-commit-reader.ts';
import { applyTransition, assertCanRecord, readWorkflowState, type TransitionResult } from '../record-stage.ts';
import { hooklessGitConfig } from '../workspace/hookless-git.ts';
import { runGit } from '../workspace/run-git.ts';
import { withCommitLock } from './create-commit.ts';

/**
 * Work that was committed outside sluice (by PrizmKit's committer, or by a person with `git commit`)
 * after sluice recorded its review, test and retrospective: a person names the commit, sluice checks
 * that it is in HEAD's history and that its content is exactly what those gates saw (every file it
 * changes, and every file the gates saw uncommitted that the requirement's commit request names, or all
 * of them without one), shows it, and only a `y` typed at a terminal records it as the requirement's
 * commit. No grant applies: a grant lets sluice make a commit, adopting one is a person's judgement.
 */
export async function adoptCommit(lc: LifecycleContext, slug: string, rev: string, caller: string | null, io?: CommandIO): Promise<TransitionResult> {
  await assertCanRecord(lc, slug, 'commit', caller);
  return withCommitLock(lc, async () => {
    const config = await hooklessGitConfig(lc.host, lc.root);
    const state = await readWorkflowState(lc, slug);
    const commit = await resolveCommit(lc, rev, config);
    const refuse = (why: string) =>
      new SluiceError('COMMIT_UNRECOGNIZED', {
        message: `commit ${commit.sha.slice(0, 12)} is not adopted as ${slug}'s: ${why}; nothing was recorded`,
        data: { sha: commit.sha, reason: why },
      });
    const inHistory = await runGit(lc.host, lc.root, ['merge-base', '--is-ancestor', commit.sha, 'HEAD'], { config });
    if (inHistory.code !== 0) throw refuse('it is not in the history of HEAD');
    const stale = await gateEvidenceStale(lc, state);
    if (stale.reasons.length > 0) throw refuse(stale.reasons.join('; '));
    const request = await readCommitRequest(lc.host, lc.root, state.artifact_dir).catch(() => undefined);
    const required = request ? (p: string) => request.paths.some((r) => covers(r, p)) : () => true;
    const differs = await contentMismatches(lc, state, { rev: commit.sha, changed: commit.paths, required }, config);
    if (differs.length > 0) throw refuse(`it does not hold what review, test and retrospective saw: ${differs.join('; ')}`);
    if (!io?.interactive)
      throw new SluiceError('COMMIT_NOT_AUTHORIZED', {
        message: `adopting ${commit.sha.slice(0, 12)} as the commit of ${slug} needs a person at a terminal; no grant applies to it`,
      });
    io.warn(describe(slug, commit));
    if (!(await io.confirm(`Record ${commit.sha.slice(0, 12)} as the commit of ${slug}?`)))
      throw new SluiceError('COMMIT_DECLINED', {
        message: `adopting ${commit.sha.slice(0, 12)} for ${slug} was declined at the terminal: nothing was recorded`,
      });
    const by = { source: 'adopted' as const, mode: 'interactive', owner: lc.host.env('USER') ?? 'terminal user' };
    const record = { sha: commit.sha, message: commit.message, paths: commit.paths, authorized_by: by, at: lc.now() };
    const fingerprint = await lc.fingerprint();
    const evidence = `git:${commit.sha}`;
    if (state.status !== 'COMMIT_PENDING')
      await applyTransition(lc, slug, caller, (s) =>
        applyEvent(s, { kind: 'verdict', stage: 'commit', verdict: 'COMMIT_PENDING', evidence }, { now: lc.now(), fingerprint, caller }),
      );
    return applyTransition(lc, slug, caller, (s) =>
      applyEvent(s, { kind: 'verdict', stage: 'commit', verdict: 'COMMITTED', commit: record, evidence }, { now: lc.now(), fingerprint, caller }),
    );
  });
}

async function resolveCommit(lc: LifecycleContext, rev: string, config: readonly string[]): Promise<GitCommit> {
  // `--end-of-options`: a name like `--output=x` is a revision, never an option.
  const r = await runGit(lc.host, lc.root, ['rev-parse', '-q', '--verify', '--end-of-options', `${rev}^{commit}`], { config });
  const sha = r.stdout.trim();
  if (r.code !== 0 || !/^[0-9a-f]{40,64}$/.test(sha))
    throw new SluiceError('USAGE', { field: 'commit', message: `${JSON.stringify(rev)} is not a commit in this repository` });
  return readGitCommit(lc.host, lc.root, sha, config);
}

function describe(slug: string, c: GitCommit): string {
  const lines = [
    `Commit ${c.sha} by ${escapeControl(c.author)}`,
    '',
    ...c.message.split('\n').map((l) => `    ${escapeControl(l)}`),
    '',
    `${c.paths.length} file(s):`,
  ];
  for (const p of c.paths) lines.push(`  ${escapeControl(p)}`);
  lines.push('', `its content is what review, test and retrospective of ${slug} saw`);
  return lines.join('\n');
}
