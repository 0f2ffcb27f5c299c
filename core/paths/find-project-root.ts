import { dirname, join } from 'pathe';
import { CONFIG_FILES } from '../config/load-config.ts';
import type { Host } from '../host/host.ts';

/**
 * What makes a folder a sluice project, in the order they are looked for: the SDLC records
 * (`.sdlc/`), a config file (`sluice.config.yaml`, `.yml`, `.json`) and the lifecycle's workspace
 * (`.prizmkit/`). `.sluice/` (transcripts, tune runs) is not one: it is output, and a stray one must
 * not capture every folder below it.
 */
export const PROJECT_MARKERS: readonly { name: string; kind: 'dir' | 'file' }[] = [
  { name: '.sdlc', kind: 'dir' },
  ...CONFIG_FILES.map((name) => ({ name, kind: 'file' as const })),
  { name: '.prizmkit', kind: 'dir' },
];

/** A generous bound on the folders climbed, so a looping mount cannot keep the search going. */
const MAX_DEPTH = 256;

async function hasMarker(host: Host, dir: string): Promise<boolean> {
  for (const m of PROJECT_MARKERS) {
    // A folder sluice may not look into is a folder without markers, as for git.
    const info = await host.stat(join(dir, m.name)).catch(() => null);
    if (info?.kind === m.kind) return true;
  }
  return false;
}

/**
 * The project a command run in `start` works on, found as git finds its repository: the nearest
 * folder, `start` itself or one above it, holding one of PROJECT_MARKERS. Undefined when no folder
 * up to the file system's root has one (the caller then works in `start`, as `init` does).
 */
export async function findProjectRoot(host: Host, start: string): Promise<string | undefined> {
  let dir = start;
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    if (await hasMarker(host, dir)) return dir;
    const parent = dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
  return undefined;
}
