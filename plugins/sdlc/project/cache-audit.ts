import { parseDataText, readDataText, type Kernel } from '../../../core/index.ts';
import { safeYamlCodec } from '../state/safe-yaml-codec.ts';
import { forgedCacheEntries, parseCacheDir, type ForgedEntry } from './disk-cache.ts';
import type { SdlcProject } from './open-project.ts';

/**
 * The parse-cache entries of a project's records (state, profile, registry, compliance files) that
 * hold a value the file's bytes do not parse to. gate and next would judge that value; the guard
 * denies writing the cache, but a program it cannot see into may, so audit makes such an entry visible.
 */
export async function forgedProjectCacheEntries(kernel: Kernel, project: SdlcProject): Promise<ForgedEntry[]> {
  const yaml = (display: string) => (text: string) => parseDataText(text, safeYamlCodec, display);
  const files = [
    { kind: 'STATE_INVALID', file: project.paths.state },
    { kind: 'PROFILE_INVALID', file: project.paths.profile },
    { kind: 'REGISTRY_INVALID', file: project.registryPath },
    ...project.compliance.map((c) => ({ kind: 'COMPLIANCE_INVALID', file: c.path })),
  ].map((f) => ({ ...f, parse: yaml(kernel.display(f.file)) }));
  // Read as the cache's users read them, so the bytes compared are the same.
  const readText = (file: string) => readDataText(kernel.host, file).catch(() => undefined);
  return forgedCacheEntries(kernel.host, parseCacheDir(kernel.host), files, readText);
}
