/**
 * sluice's own credentials: what authorizes commits, signs approvals or vouches for a reviewed project.
 * A delegate (the agent sluice governs) never gets them, and their values never reach output.
 */
export const SLUICE_CREDENTIALS: readonly string[] = ['SLUICE_COMMIT_GRANT', 'SLUICE_SIGNING_KEY', 'SLUICE_TRUSTED_HASH'];

export const isSluiceCredential = (name: string): boolean => SLUICE_CREDENTIALS.includes(name);

/** An environment without sluice's credentials. */
export function withoutSluiceCredentials<T extends string | undefined>(env: Record<string, T>): Record<string, T> {
  return Object.fromEntries(Object.entries(env).filter(([name]) => !isSluiceCredential(name)));
}
