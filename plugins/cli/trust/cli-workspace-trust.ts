import { realpathSync } from 'node:fs';
import { basename } from 'node:path';
import {
  configSubjects,
  createWorkspaceTrust,
  makeManifest,
  TRUSTED_HASH_ENV,
  type Host,
  type LoadedConfig,
  type WorkspaceTrust,
} from '../../../core/index.ts';
import { openTrustStore, trustStorePath } from './trust-store.ts';

/**
 * Commands that never need project code: they read records and print them, or guard the agent.
 * They never load config plugins, so an untrusted workspace cannot run code through them (the
 * SessionStart hook runs `handoff` on every session).
 */
export const COMMANDS_WITHOUT_PROJECT_CODE: ReadonlySet<string> = new Set([
  'status',
  'audit',
  'report',
  'handoff',
  'specs',
  'trust',
  'doctor',
  'guard',
  'hooks',
  'queue',
]);

/**
 * Commands that work without project code but say more with it (help lists plugin commands,
 * `schema` knows plugin formats, `profile validate` plugin gate types): they load config plugins
 * only when the workspace is already trusted, and never ask for trust. The MCP server starts in any
 * project, and its tools that would run project code then say it is untrusted.
 */
export const COMMANDS_WITH_PROJECT_CODE_IF_TRUSTED: ReadonlySet<string | undefined> = new Set([undefined, 'schema', 'profile', 'mcp']);

/** Whether a command line may load the config's plugins (a refusal to load is decided by the kernel's trust check). */
export async function loadsProjectCode(word: string | undefined, loaded: LoadedConfig, trust: WorkspaceTrust): Promise<boolean> {
  if (loaded.config.plugins.length === 0) return false;
  if (COMMANDS_WITH_PROJECT_CODE_IF_TRUSTED.has(word)) return (await trust.review()).trusted;
  return word === undefined || !COMMANDS_WITHOUT_PROJECT_CODE.has(word);
}

/** The user's workspace trust for one project: its content now, the user's store, and the CI hash. */
export function cliWorkspaceTrust(host: Host, projectRoot: string, loaded: LoadedConfig): WorkspaceTrust {
  const configDisplay = loaded.file === undefined ? 'sluice.config.yaml' : basename(loaded.file);
  const env = host.envAll();
  const key = (() => {
    try {
      return realpathSync(projectRoot);
    } catch {
      return projectRoot;
    }
  })();
  let store: ReturnType<typeof openTrustStore> | undefined;
  const open = () => (store ??= openTrustStore(host, key));
  return createWorkspaceTrust({
    async manifest() {
      const { profileTrustSubjects } = await import('../../sdlc/profile/profile-trust-subjects.ts');
      return makeManifest([
        ...(await configSubjects(host, projectRoot, loaded.config, loaded.file, configDisplay)),
        ...(await profileTrustSubjects(host, projectRoot)),
      ]);
    },
    record: async () => open().get(key),
    expectedHash: env[TRUSTED_HASH_ENV],
    grant: async (manifest) => open().set(key, { hash: manifest.hash, subjects: manifest.subjects, trustedAt: host.now().toISOString() }),
    revoke: async () => open().remove(key),
    storePath: trustStorePath(host),
  });
}
