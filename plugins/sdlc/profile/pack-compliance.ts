import { join } from 'pathe';
import { isSluiceError, type Host } from '../../../core/index.ts';
import { builtinPackDir, resolvePack } from './resolve-pack.ts';

/** Compliance files any pack may use when it does not carry its own (hipaa, gdpr written for sluice; soc2 from the enterprise pack). */
export const sharedComplianceDirs = (host: Host) => [builtinPackDir(host, 'compliance'), join(builtinPackDir(host, 'enterprise'), 'compliance')];

/** Where the gate file for one framework is: each pack's own `compliance/` in turn, then the shared ones. */
export async function findComplianceFile(host: Host, packDirs: readonly (string | undefined)[], framework: string): Promise<string | undefined> {
  const dirs = [...packDirs.flatMap((d) => (d ? [join(d, 'compliance')] : [])), ...sharedComplianceDirs(host)];
  for (const path of dirs.map((dir) => join(dir, `${framework}-gates.yaml`))) if (await host.stat(path)) return path;
  return undefined;
}

/**
 * The folder of the pack a project's `profile_id` names (built-in, configured or installed), or
 * undefined when none is known here. The reference plugin never freezes compliance files: it reads
 * `profiles/<profile_id>/compliance/` of its own install, so a project it set up has no
 * `.sdlc/compliance/`, and sluice reads them from the pack of that id the same way.
 */
export async function packDirForProfileId(host: Host, profileId: string, projectRoot: string, configProfiles: readonly string[]): Promise<string | undefined> {
  try {
    return (await resolvePack(host, profileId, projectRoot, configProfiles)).dir;
  } catch (error) {
    if (isSluiceError(error) && (error.code === 'PROFILE_NOT_FOUND' || error.code === 'CONFIG_INVALID')) return undefined;
    throw error;
  }
}
