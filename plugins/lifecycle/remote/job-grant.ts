import { isSluiceError } from '../../../core/index.ts';
import { authorize, type AuthorizeOptions } from '../commit/authorize-commit.ts';
import { grantDoesNotCover, type CommitGrant } from '../commit/commit-grant.ts';
import { defaultGrantKeyFile, readGrantKey, readGrantStatement, signCommitGrant } from '../commit/signed-grant.ts';
import type { LifecycleContext } from '../lifecycle-context.ts';

/** How long a worker may use a grant after the orchestrator made it: long enough for slow stages, never open-ended. */
const GRANT_TTL_MS = 24 * 60 * 60 * 1000;

export interface WorkerGrants {
  /** Signed grant per requirement the orchestrator may let workers commit. */
  grants: Map<string, string>;
  /** Why no grant was made, per requirement (shown when the requirement stops at COMMIT_PENDING). */
  refused: Map<string, string>;
}

/**
 * Commit authority for remote jobs is never a flag: the orchestrator hands a worker a grant only when it
 * is itself authorized to commit the requirement (host grant, the user's config, a signed environment
 * grant, or a person at the terminal, asked once for all), signed with the user's grant key and bound to
 * the remote, the one requirement and an expiry. Without the key there is nothing to sign with: workers
 * then stop at COMMIT_PENDING, as a local run without authority does.
 */
export async function grantsForWorkers(lc: LifecycleContext, slugs: readonly string[], remote: string, o: AuthorizeOptions): Promise<WorkerGrants> {
  const out: WorkerGrants = { grants: new Map(), refused: new Map() };
  const authorized: { slug: string; by: { mode: string; owner: string } }[] = [];
  const unasked: string[] = [];
  for (const slug of slugs) {
    try {
      const by = await authorize(lc, { slug, action: 'commit', preview: '', question: '' }, { ...o, io: undefined });
      authorized.push({ slug, by });
    } catch (error) {
      if (!isSluiceError(error, 'COMMIT_NOT_AUTHORIZED')) throw error;
      unasked.push(slug);
      out.refused.set(slug, error.detail);
    }
  }
  if (unasked.length > 0 && o.io?.interactive) {
    o.io.warn(`Workers will commit ${unasked.join(', ')} on branches sluice/<slug> of ${remote} once review, test and retrospective pass.`);
    if (await o.io.confirm('Let the workers commit these requirements?')) {
      const owner = lc.host.env('USER') ?? 'terminal user';
      for (const slug of unasked) {
        authorized.push({ slug, by: { mode: 'interactive', owner } });
        out.refused.delete(slug);
      }
    }
  }
  if (authorized.length === 0) return out;
  const keyFile = o.grantKeyFile ?? defaultGrantKeyFile(lc.host);
  const key = await readGrantKey(lc.host, keyFile);
  if (key === null || key.length < 16) {
    for (const { slug } of authorized) out.refused.set(slug, `no grant key at ${keyFile} to sign the workers' grant with`);
    return out;
  }
  const expires = new Date(lc.host.now().getTime() + GRANT_TTL_MS).toISOString();
  for (const { slug, by } of authorized)
    out.grants.set(
      slug,
      signCommitGrant({ mode: by.mode, owner: by.owner, local_commit_authorized: true, repository: remote, requirements: [slug], expires_at: expires }, key),
    );
  return out;
}

/**
 * A worker's check of the grant a job carries: bound to the job's remote and to exactly this requirement,
 * not expired. Its authenticity is the job's: the orchestrator signed the whole job with the queue key and
 * the worker verified that before the handler ran (in-process, the job never left this process), so the
 * worker holds no commit-grant key. The result is what the worker (the trusted host) passes on as its host grant.
 */
export function acceptJobGrant(token: string, remote: string, slug: string, now: Date): { grant: CommitGrant } | { refused: string } {
  const read = readGrantStatement(token);
  if ('refused' in read) return { refused: `the job's grant is refused: ${read.refused.replace('SLUICE_COMMIT_GRANT', 'the grant')}` };
  const g = read.grant;
  if (g.repository !== remote) return { refused: `the job's grant is bound to ${g.repository}, not ${remote}` };
  const why = grantDoesNotCover(g, slug, now);
  if (why) return { refused: `the job's grant does not apply: ${why}` };
  return { grant: { mode: g.mode, owner: g.owner, local_commit_authorized: true, requirements: [slug], expires_at: g.expires_at } };
}
