import { join } from 'pathe';
import type { Host } from '../../../core/index.ts';
import type { Fingerprint } from '../state/workflow-state-schema.ts';
import { isSluiceRuntimePath, readGitStatus, type GitStatus } from './git-status.ts';

/**
 * Requirement artifacts are left out of the fingerprint: each recorded result hashes the artifacts it was
 * read from, and a stage writing its evidence (or the commit request) is not a change to the code.
 */
const ARTIFACT_FOLDERS = /^\.prizmkit\/(specs|bugfix|refactor)\//;
export const isArtifactPath = (path: string) => ARTIFACT_FOLDERS.test(path);

/** Per-file digests are kept short (64 bits): enough to see that a file changed, small in every record. */
const FILE_DIGEST_CHARS = 16;

/** Files bigger than this are hashed by size and mtime: a fingerprint must stay cheap. */
const MAX_HASHED_BYTES = 32 * 1024 * 1024;

/**
 * The workspace as a stage saw it: git HEAD plus a SHA-256 over every uncommitted change (tracked
 * changes and untracked, non-ignored files, with their current content), leaving out sluice's runtime
 * data (`.prizmkit/state/`, `.sluice/`) and requirement artifacts. Any later code change gives a different fingerprint.
 * Null outside a git work tree, where freshness cannot be judged.
 */
export async function computeFingerprint(host: Host, root: string): Promise<Fingerprint | null> {
  return (await readWorkspace(host, root))?.fingerprint ?? null;
}

/** The workspace at one moment: its git status and its fingerprint (one git call for both). */
export interface WorkspaceSnapshot {
  status: GitStatus;
  fingerprint: Fingerprint;
}

export async function readWorkspace(host: Host, root: string): Promise<WorkspaceSnapshot | null> {
  const status = await readGitStatus(host, root);
  if (!status) return null;
  // The digest of every entry's line, in order: the same bytes whichever host hashes them.
  let lines = '';
  const files: Record<string, string> = {};
  const entries = status.entries
    .filter((e) => !isSluiceRuntimePath(e.path) && !isArtifactPath(e.path))
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  for (const e of entries) {
    const digest = await contentDigest(host, join(root, e.path));
    lines += `${e.type} ${e.xy} ${e.path}\0${digest}\0`;
    files[e.path] = digest.slice(0, FILE_DIGEST_CHARS);
  }
  return { status, fingerprint: { head: status.head, diff: host.sha256(lines), files } };
}

async function contentDigest(host: Host, path: string): Promise<string> {
  const info = await host.lstat(path);
  if (info === null) return 'deleted';
  if (info.kind !== 'file') return info.kind;
  if (info.size > MAX_HASHED_BYTES) return `large:${info.size}:${info.mtimeMs}`;
  try {
    return host.sha256(await host.readBytes(path));
  } catch {
    return 'unreadable';
  }
}

/**
 * Workspace snapshots on demand for many concurrent stages: callers that arrive while one computation runs
 * share the next one (which starts after their request, so it sees their changes). One git call serves
 * a burst of transitions.
 */
export function createFingerprinter<T>(compute: () => Promise<T>): () => Promise<T> {
  let running: Promise<T> | null = null;
  let queued: Promise<T> | null = null;
  const get = (): Promise<T> => {
    if (!running) {
      running = compute().finally(() => {
        running = null;
      });
      return running;
    }
    queued ??= running
      .catch(() => undefined)
      .then(() => {
        queued = null;
        return get();
      });
    return queued;
  };
  return get;
}

/** The digest `files` records for a path, computed the same way, for comparing one file later. */
export async function fileDigest(host: Host, root: string, path: string): Promise<string> {
  return (await contentDigest(host, join(root, path))).slice(0, FILE_DIGEST_CHARS);
}

export const sameFingerprint = (a: Fingerprint | null | undefined, b: Fingerprint | null | undefined): boolean =>
  a != null && b != null && a.head === b.head && a.diff === b.diff;
