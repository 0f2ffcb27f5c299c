import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { isSluiceError } from '../../../core/index.ts';
import { builtinPackDir, resolvePack } from './resolve-pack.ts';
import '../sdlc-errors.ts';

/** Compliance files any pack may use when it does not carry its own (hipaa, gdpr written for sluice; soc2 from the enterprise pack). */
export const sharedComplianceDirs = () => [builtinPackDir('compliance'), join(builtinPackDir('enterprise'), 'compliance')];

/** Where the gate file for one framework is: each pack's own `compliance/` in turn, then the shared ones. */
export function findComplianceFile(packDirs: readonly (string | undefined)[], framework: string): string | undefined {
  const dirs = [...packDirs.flatMap((d) => (d ? [join(d, 'compliance')] : [])), ...sharedComplianceDirs()];
  return dirs.map((dir) => join(dir, `${framework}-gates.yaml`)).find((p) => existsSync(p));
}

/**
 * The folder of the pack a project's `profile_id` names (built-in, configured or installed), or
 * undefined when none is known here. The reference plugin never freezes compliance files: it reads
 * `profiles/<profile_id>/compliance/` of its own install, so a project it set up has no
 * `.sdlc/compliance/`, and sluice reads them from the pack of that id the same way.
 */
export async function packDirForProfileId(profileId: string, projectRoot: string, configProfiles: readonly string[]): Promise<string | undefined> {
  try {
    return (await resolvePack(profileId, projectRoot, configProfiles)).dir;
  } catch (error) {
    if (isSluiceError(error) && (error.code === 'PROFILE_NOT_FOUND' || error.code === 'CONFIG_INVALID')) return undefined;
    throw error;
  }
}
