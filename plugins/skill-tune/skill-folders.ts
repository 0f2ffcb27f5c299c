import { dirname, join } from 'pathe';
import { SluiceError, type Host } from '../../core/index.ts';

/**
 * Copies of skill folders: backups, per-iteration snapshots, the improver's working copy and
 * restores. Skills are small; the limits stop a mistaken folder (a whole repository) from being copied.
 */
export const MAX_TREE_FILES = 2000;
export const MAX_TREE_BYTES = 64 * 1024 * 1024;

export interface TreeOptions {
  /** Symlinks and special files: skip them (artifact listings) or refuse the folder (skill copies). */
  special?: 'skip' | 'error';
  display?(path: string): string;
}

/** Relative paths of the regular files under `dir`, sorted; an absent folder has none. */
export async function listTree(host: Host, dir: string, o: TreeOptions = {}): Promise<string[]> {
  const out: string[] = [];
  let bytes = 0;
  const walk = async (rel: string): Promise<void> => {
    for (const entry of await host.listDir(rel === '' ? dir : join(dir, rel))) {
      const child = rel === '' ? entry.name : `${rel}/${entry.name}`;
      if (entry.kind === 'dir') await walk(child);
      else if (entry.kind === 'file') {
        out.push(child);
        bytes += (await host.stat(join(dir, child)))?.size ?? 0;
        if (out.length > MAX_TREE_FILES || bytes > MAX_TREE_BYTES) {
          throw new SluiceError('SKILL_INVALID', {
            file: o.display?.(dir) ?? dir,
            message: `folder holds more than ${MAX_TREE_FILES} files or ${MAX_TREE_BYTES / 1024 / 1024} MB; is it really a skill?`,
          });
        }
      } else if (o.special === 'error') {
        throw new SluiceError('SKILL_INVALID', {
          file: o.display?.(join(dir, child)) ?? join(dir, child),
          message: `${entry.kind} inside a skill folder cannot be snapshotted; only regular files and folders are copied`,
        });
      }
    }
  };
  if ((await host.stat(dir))?.kind !== 'dir') return out;
  await walk('');
  return out.sort();
}

/** Replaces `to` with a copy of `from`. */
export async function copyTree(host: Host, from: string, to: string, o: TreeOptions = {}): Promise<string[]> {
  const files = await listTree(host, from, { special: 'error', ...o });
  await host.remove(to, { recursive: true });
  await host.mkdir(to);
  for (const file of files) {
    await host.mkdir(dirname(join(to, file)));
    await host.copyFile(join(from, file), join(to, file));
  }
  return files;
}

export interface TreeChanges {
  added: string[];
  modified: string[];
  removed: string[];
}

export const changedPaths = (c: TreeChanges) => [...c.added, ...c.modified, ...c.removed].sort();

/** What would change if `to` were made identical to `from`. */
export async function diffTrees(host: Host, from: string, to: string): Promise<TreeChanges> {
  const [source, target] = await Promise.all([listTree(host, from, { special: 'error' }), listTree(host, to, { special: 'skip' })]);
  const existing = new Set(target);
  const wanted = new Set(source);
  const changes: TreeChanges = { added: [], modified: [], removed: target.filter((f) => !wanted.has(f)) };
  for (const file of source) {
    if (!existing.has(file)) changes.added.push(file);
    else if (!sameBytes(await host.readBytes(join(from, file)), await host.readBytes(join(to, file)))) changes.modified.push(file);
  }
  return changes;
}

/**
 * Makes `to` identical to `from`, touching only files that differ, so it is idempotent and cheap
 * when nothing changed (a resumed run re-syncs without cost).
 */
export async function syncTree(host: Host, from: string, to: string): Promise<TreeChanges> {
  const changes = await diffTrees(host, from, to);
  await host.mkdir(to);
  for (const file of [...changes.added, ...changes.modified]) {
    await host.mkdir(dirname(join(to, file)));
    await host.writeAtomic(join(to, file), await host.readBytes(join(from, file)));
  }
  for (const file of changes.removed) await host.remove(join(to, file));
  await removeEmptyFolders(host, to, changes.removed);
  return changes;
}

/** Folders emptied by removals go too (deepest first), so `to` ends up truly identical. */
async function removeEmptyFolders(host: Host, root: string, removed: string[]): Promise<void> {
  const folders = new Set<string>();
  for (const file of removed) for (let d = dirname(file); d !== '.' && d !== ''; d = dirname(d)) folders.add(d);
  for (const folder of [...folders].sort((a, b) => b.split('/').length - a.split('/').length)) {
    const path = join(root, folder);
    if ((await host.stat(path))?.kind === 'dir' && (await host.listDir(path)).length === 0) await host.remove(path, { recursive: true });
  }
}

export function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.byteLength !== b.byteLength) return false;
  for (let i = 0; i < a.byteLength; i++) if (a[i] !== b[i]) return false;
  return true;
}
