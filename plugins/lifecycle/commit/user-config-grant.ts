import { join } from 'pathe';
import * as v from 'valibot';
import { isInside, yamlLibrary, type Host } from '../../../core/index.ts';
import { CommitGrantSchema, type CommitGrant } from './commit-grant.ts';

/**
 * The user's own sluice config, outside every repository: `~/.config/sluice/config.yaml` (home from the
 * password database, not $HOME, which a caller can change). Only there may a person grant headless
 * commits; a grant in a file inside the work tree is something the agent could have written.
 *
 *   lifecycle:
 *     commitAuthorization:
 *       mode: headless-ci
 *       owner: ci.example.com
 *       local_commit_authorized: true
 *       repositories: [/home/me/src/app]   # optional: work trees it covers
 *       requirements: ['*']                 # optional
 *       expires_at: 2030-01-01T00:00:00Z    # optional
 */
export function defaultUserConfigFile(host: Host): string {
  return join(host.accountHome(), '.config', 'sluice', 'config.yaml');
}

/** A person's config is a few lines; a FIFO or a huge file in its place is refused, not waited on. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export const UserGrantSchema = v.object({
  ...CommitGrantSchema.entries,
  repositories: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
});

const UserConfigSchema = v.looseObject({ lifecycle: v.optional(v.looseObject({ commitAuthorization: v.optional(UserGrantSchema) })) });

/**
 * The grant in the user's config, or why there is none: the file must be a regular file owned by this
 * user that nobody else can read or write (mode 0600 or stricter), outside the work tree, and cover it.
 */
export async function readUserConfigGrant(host: Host, file: string, workTree: string): Promise<{ grant?: CommitGrant; refused?: string }> {
  const info = await host.lstat(file).catch(() => null);
  if (!info) return {};
  if (isInside(workTree, file)) return { refused: `${file} is inside the work tree` };
  if (info.kind !== 'file') return { refused: `${file} is not a regular file` };
  const uid = host.userId();
  if (uid !== undefined && info.uid !== uid) return { refused: `${file} is not owned by the current user` };
  // A host that cannot tell a file's mode cannot show it is private: refused, as a readable one is.
  const mode = info.mode ?? 0o777;
  if ((mode & 0o077) !== 0) return { refused: `${file} can be read or written by others (mode ${(mode & 0o777).toString(8)}; chmod 600 it)` };
  let raw: unknown;
  try {
    raw = yamlLibrary().parse(await host.readText(file, { maxBytes: MAX_CONFIG_BYTES }));
  } catch (error) {
    return { refused: `${file} cannot be parsed: ${(error as Error).message.split('\n')[0]}` };
  }
  const parsed = v.safeParse(UserConfigSchema, raw ?? {});
  if (!parsed.success) return { refused: `${file} field ${v.getDotPath(parsed.issues[0]) ?? ''}: ${parsed.issues[0].message}` };
  const grant = parsed.output.lifecycle?.commitAuthorization;
  if (!grant) return {};
  if (grant.repositories && !grant.repositories.some((r) => r === workTree)) return { refused: `the grant in ${file} does not list ${workTree}` };
  return { grant };
}
