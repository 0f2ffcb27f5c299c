import { loadConfig } from '../../core/index.ts';
import { cliWorkspaceTrust } from '../../plugins/cli/trust/cli-workspace-trust.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/**
 * The environment a CI host sets after reviewing a project: SLUICE_TRUSTED_HASH with the hash of
 * what the project makes sluice run, as it is now. Tests that configure delegate commands, command
 * gates or plugins on purpose pass it to the CLI; change the project afterwards and it no longer matches.
 */
export async function trustedEnv(dir: string): Promise<Record<string, string>> {
  const host = createNodeHost({ cwd: dir });
  const review = await cliWorkspaceTrust(host, dir, await loadConfig(host, dir)).review();
  return { SLUICE_TRUSTED_HASH: review.manifest.hash };
}
