import { SluiceError, sha256Hex, type Host, type Kernel } from '../../../core/index.ts';
import type { SdlcState } from '../state/state-schema.ts';
import type { SdlcPaths } from './project-paths.ts';

/** sha256 of a frozen file's bytes, as recorded in state.yaml (`sha256:<hex>`); `sha256`: the host's where there is one (native on Node). */
export const checksumOf = (bytes: string | Uint8Array, sha256: (data: string | Uint8Array) => string = sha256Hex) => `sha256:${sha256(bytes)}`;

/** Frozen file paths as state.yaml keys them: relative to the project root (`.sdlc/profile.yaml`). */
export const frozenKey = (paths: SdlcPaths, full: string) =>
  full
    .slice(paths.root.length + 1)
    .split('\\')
    .join('/');

/**
 * The checksums a project's frozen files must have now: those recorded at init (`frozen_files`,
 * written once), each replaced by the latest re-freeze in history (`refreeze: true` entries, which
 * say who re-froze the file and why; null for a file removed on purpose). Empty for a project made
 * before sluice recorded them.
 */
export function expectedChecksums(state: SdlcState): Map<string, string> {
  const out = new Map<string, string>();
  const apply = (files: Record<string, string | null>) => {
    for (const [file, sum] of Object.entries(files)) {
      if (sum === null) out.delete(file);
      else out.set(file, sum);
    }
  };
  apply(state.frozen_files ?? {});
  for (const entry of state.history) if (entry.refreeze && entry.frozen_files) apply(entry.frozen_files);
  return out;
}

export interface FrozenDrift {
  file: string;
  expected: string;
  /** null: the file is gone. */
  actual: string | null;
}

/** Frozen files whose bytes no longer match their recorded checksum. */
export async function frozenDrift(host: Host, paths: SdlcPaths, state: SdlcState): Promise<FrozenDrift[]> {
  const drift: FrozenDrift[] = [];
  for (const [file, expected] of expectedChecksums(state)) {
    const full = `${paths.root}/${file}`;
    const actual = (await host.stat(full)) ? checksumOf(await host.readBytes(full), host.sha256) : null;
    if (actual !== expected) drift.push({ file, expected, actual });
  }
  return drift;
}

/**
 * `gate` and the transitions refuse to run on a project whose frozen registry, profile or
 * compliance file changed since it was frozen: the rules the gates apply would not be the ones
 * agreed at init. FROZEN_MODIFIED names the file; `sluice refreeze FILE` records a deliberate change.
 */
export async function assertFrozenIntact(kernel: Kernel, paths: SdlcPaths, state: SdlcState): Promise<void> {
  const [first, ...rest] = await frozenDrift(kernel.host, paths, state);
  if (!first) return;
  const how = first.actual === null ? 'was removed' : 'was modified';
  throw new SluiceError('FROZEN_MODIFIED', {
    file: first.file,
    message: `${first.file} ${how} after it was frozen${rest.length ? ` (and ${rest.map((d) => d.file).join(', ')})` : ''}; the gates would no longer apply the rules agreed at init`,
    hint: `restore it, or record the change: sluice refreeze ${first.file} --reason TEXT --signed-by NAME`,
    data: { drift: [first, ...rest] },
  });
}
