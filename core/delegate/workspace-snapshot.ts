import { join } from 'pathe';
import type { Host } from '../host/host.ts';

/**
 * An analysis run must not change the project, and not every backend can guarantee that (agy's
 * plan mode blocks its edit tools, not its shell). So the runner takes a snapshot of the working
 * folder before and after every analysis run and fails a run that changed anything, naming the
 * paths. A snapshot is each entry's kind, size and mtime (cheap: no file is read); VCS metadata,
 * dependency folders and sluice's own runtime folder are left out, as is anything the caller
 * names (the run's own transcript). Bounded: a tree over the entry limit is not judged.
 */
export const SNAPSHOT_SKIP_DIRS = new Set(['.git', '.hg', '.svn', 'node_modules', '.sluice']);
/** sluice's own records, written by sluice itself (lifecycle transitions) while other work runs. */
const SNAPSHOT_SKIP_PATHS = ['.prizmkit/state'];
const MAX_ENTRIES = 200_000;

export type WorkspaceSnapshot = { complete: true; entries: Map<string, string> } | { complete: false };

export async function snapshotWorkspace(host: Host, root: string, skip: readonly string[] = []): Promise<WorkspaceSnapshot> {
  const entries = new Map<string, string>();
  const skipped = new Set([...SNAPSHOT_SKIP_PATHS, ...skip]);
  const stack = [''];
  while (stack.length > 0) {
    const rel = stack.pop()!;
    let list;
    try {
      list = await host.listDir(rel === '' ? root : join(root, rel));
    } catch {
      continue;
    }
    for (const e of list) {
      const path = rel === '' ? e.name : `${rel}/${e.name}`;
      if (skipped.has(path)) continue;
      if (e.kind === 'dir') {
        if (SNAPSHOT_SKIP_DIRS.has(e.name)) continue;
        entries.set(path, 'dir');
        stack.push(path);
      } else {
        const info = await host.lstat(join(root, path));
        entries.set(path, info === null ? 'gone' : `${info.kind}:${info.size}:${info.mtimeMs}`);
      }
      if (entries.size > MAX_ENTRIES) return { complete: false };
    }
  }
  return { complete: true, entries };
}

/** Paths added, removed or modified between two snapshots, sorted; undefined when either could not be taken whole. */
export function changedPaths(before: WorkspaceSnapshot, after: WorkspaceSnapshot): string[] | undefined {
  if (!before.complete || !after.complete) return undefined;
  const changed = new Set<string>();
  for (const [path, sig] of after.entries) if (before.entries.get(path) !== sig && sig !== 'dir') changed.add(path);
  for (const [path, sig] of before.entries) if (!after.entries.has(path)) changed.add(sig === 'dir' ? `${path}/` : path);
  for (const [path, sig] of after.entries) if (sig === 'dir' && !before.entries.has(path)) changed.add(`${path}/`);
  return [...changed].sort();
}
