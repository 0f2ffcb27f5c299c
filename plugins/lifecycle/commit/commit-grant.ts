import * as v from 'valibot';

/**
 * A trusted host's authorization of headless local commits (seed: mode, owner, local_commit_authorized).
 * It comes from `lifecycle.commitAuthorization` in the user's own ~/.config/sluice/config.yaml (see
 * user-config-grant.ts), from a signed, bound `SLUICE_COMMIT_GRANT`, or from code that embeds sluice;
 * never from a file inside the work tree, a flag or an artifact.
 *
 *   lifecycle:
 *     commitAuthorization:
 *       mode: headless-ci
 *       owner: ci.example.com
 *       local_commit_authorized: true
 *       requirements: ['*']          # optional: slugs it covers
 *       expires_at: 2030-01-01T00:00:00Z   # optional
 */
export const CommitGrantSchema = v.object({
  mode: v.pipe(v.string(), v.minLength(1), v.maxLength(100)),
  owner: v.pipe(v.string(), v.minLength(1), v.maxLength(200)),
  local_commit_authorized: v.literal(true, 'local_commit_authorized must be true'),
  requirements: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
  expires_at: v.optional(v.pipe(v.string(), v.isoTimestamp())),
});
export type CommitGrant = v.InferOutput<typeof CommitGrantSchema>;

export const LifecycleConfigSchema = v.looseObject({
  commitAuthorization: v.optional(CommitGrantSchema),
});

/** Why a well-formed grant does not cover this commit, or undefined when it does. */
export function grantDoesNotCover(grant: CommitGrant, slug: string, now: Date): string | undefined {
  if (grant.expires_at !== undefined && Date.parse(grant.expires_at) <= now.getTime()) return `it expired at ${grant.expires_at}`;
  if (grant.requirements !== undefined && !grant.requirements.includes('*') && !grant.requirements.includes(slug)) return `it does not list ${slug}`;
  return undefined;
}
