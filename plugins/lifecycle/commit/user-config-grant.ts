import { join } from 'pathe';
import * as v from 'valibot';
import { checkPrivateFile, isInside, userFolders, yamlLibrary, type Host } from '../../../core/index.ts';
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
  return join(userFolders(host.env, host.accountHome).account, 'config.yaml');
}

/** A person's config is a few lines; a FIFO or a huge file in its place is refused, not waited on. */
const MAX_CONFIG_BYTES = 1024 * 1024;

export const UserGrantSchema = v.object({
  ...CommitGrantSchema.entries,
  repositories: v.optional(v.array(v.pipe(v.string(), v.minLength(1)))),
});

const UserConfigSchema = v.looseObject({ lifecycle: v.optional(v.looseObject({ commitAuthorization: v.optional(UserGrantSchema) })) });

/**
 * The grant in the user's config, or why there is none: outside the work tree, and covering it. A
 * file someone else could have written or read (another owner, group/world access, a folder others
 * can write) is refused as ssh refuses such a key: PRIVATE_FILE_UNSAFE naming it and its mode (exit 2).
 */
export async function readUserConfigGrant(host: Host, file: string, workTree: string): Promise<{ grant?: CommitGrant; refused?: string }> {
  if (isInside(workTree, file)) return (await host.lstat(file).catch(() => null)) ? { refused: `${file} is inside the work tree` } : {};
  const info = await checkPrivateFile(host, file, { what: 'the user config', secret: true });
  if (!info) return {};
  // A host that cannot tell a file's mode cannot show it is private: refused, as a readable one is.
  if (info.mode === undefined) return { refused: `${file} has no mode this system can show to be private` };
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
