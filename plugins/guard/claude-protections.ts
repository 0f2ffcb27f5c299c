import { join } from 'node:path';
import { isInside, protectedUserFolders, type Host } from '../../core/index.ts';

/**
 * What an interactive Claude Code session must not touch, as absolute paths, for the sandbox and
 * permission settings `sluice hooks install claude` writes (and `sluice doctor` compares):
 * - written by sluice only: the records (`.sdlc/` except the agent's `artifacts/` and the generated
 *   `reports/`, `.prizmkit/state/`, `.sluice/`), sluice's config (`sluice.config.*`), and git's
 *   `.git/config` and `.git/hooks/` (git runs what they name);
 * - neither read nor written: sluice's user folders (trust store, keys, anchors, cache), the same
 *   `protectedUserFolders` sluice reads them from;
 * - sluice's installation and the node that runs its hooks, so the guard cannot be replaced.
 *
 * Claude Code's sandbox cannot make an exception inside a denied folder, so `.sdlc/` is listed entry
 * by entry: the names sluice writes there and whatever else is there now (doctor says when a new
 * entry makes the settings out of date).
 */
export interface ClaudeProtections {
  /** Paths sandboxed commands and the file tools must not write. */
  denyWrite: string[];
  /** Paths they must not read (nor write). */
  denyRead: string[];
  /** Which of those paths are folders (a permission rule then covers `PATH/**`). */
  folders: ReadonlySet<string>;
  /** sluice's installation when it was left out because the project is inside it (a sluice checkout). */
  installationSkipped?: string;
}

/** What sluice keeps in `.sdlc/` (files and folders), present or not yet. */
const SDLC_FILES = ['state.yaml', 'state.yaml.lock', 'journal.jsonl', 'profile.yaml', 'phase-registry.yaml', 'constitution.md', 'allowed_signers'];
const SDLC_FOLDERS = ['compliance', 'context', 'backups'];
const OPEN_IN_SDLC = new Set(['artifacts', 'reports']);
const CONFIG_FILES = ['sluice.config.yaml', 'sluice.config.yml', 'sluice.config.json'];

export async function claudeProtections(host: Host, root: string, o: { nodeBinary: string; installation: string }): Promise<ClaudeProtections> {
  const folders = new Set<string>();
  const folder = (path: string) => (folders.add(path), path);
  const sdlc = join(root, '.sdlc');
  const present = await host.listDir(sdlc).catch(() => []);
  const names = new Set([...SDLC_FILES, ...SDLC_FOLDERS, ...present.map((e) => e.name)]);
  const records = [...names]
    .filter((name) => !OPEN_IN_SDLC.has(name))
    .sort()
    .map((name) => {
      const entry = present.find((e) => e.name === name);
      const path = join(sdlc, name);
      return (entry ? entry.kind === 'dir' : SDLC_FOLDERS.includes(name)) ? folder(path) : path;
    });
  const userFolders = protectedUserFolders(host.env, host.accountHome).map(folder);
  // A sluice checkout used as its own project: denying its folder would deny the whole project.
  const inside = isInside(o.installation, root);
  const denyWrite = [
    ...records,
    folder(join(root, '.prizmkit', 'state')),
    folder(join(root, '.sluice')),
    ...CONFIG_FILES.map((f) => join(root, f)),
    join(root, '.git', 'config'),
    folder(join(root, '.git', 'hooks')),
    ...userFolders,
    ...(inside ? [] : [folder(o.installation)]),
    o.nodeBinary,
  ];
  return { denyWrite: [...new Set(denyWrite)], denyRead: userFolders, folders, ...(inside ? { installationSkipped: o.installation } : {}) };
}
