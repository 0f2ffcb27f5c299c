import { SluiceError, type Host } from '../../../core/index.ts';
import { JOURNAL_DIR } from '../journal/requirement-journal.ts';
import { ARTIFACT_KINDS, artifactDirFor } from '../slug.ts';
import { WORKFLOWS_DIR } from '../state/workflow-state-file.ts';
import { hooklessGit } from '../workspace/hookless-git.ts';

/**
 * A worker trusts nothing a job names. A seed may write only the requirement's own files (its artifact
 * folders, its state, its journal): never `.git/` (config, hooks, info/attributes), never an absolute
 * or `..` path, never through a symlink. A checkpoint may change the workspace as stages do, but never
 * git's own files, and never by a symlink leading out of the clone or into `.git`.
 */
const refused = (message: string) => new SluiceError('QUEUE_JOB_PATH_REFUSED', { message });

/** `.git` in any case, and the 8.3 short name NTFS gives it: git's own folder under every spelling a filesystem may honour. */
const GIT_DIR_NAME = /^(\.git|git~1)$/i;

/** The relative path's segments, or a refusal: absolute, empty, `.`/`..`, backslashes, NUL, `.git`. */
function segmentsOf(path: string, what: string): string[] {
  if (typeof path !== 'string' || path === '' || path.includes('\0') || path.includes('\\'))
    throw refused(`${what} ${JSON.stringify(path)} is not a plain relative path`);
  if (path.startsWith('/')) throw refused(`${what} ${JSON.stringify(path)} is absolute`);
  const parts = path.split('/');
  for (const p of parts) {
    if (p === '' || p === '.' || p === '..') throw refused(`${what} ${JSON.stringify(path)} has an empty, . or .. segment`);
    if (GIT_DIR_NAME.test(p.replace(/[. ]+$/, ''))) throw refused(`${what} ${JSON.stringify(path)} is inside git's own folder`);
  }
  return parts;
}

/** Whether `path` is one of the requirement's own files a seed may carry. */
export function isRequirementFile(slug: string, path: string): boolean {
  if (path === `${WORKFLOWS_DIR}/${slug}.json` || path === `${JOURNAL_DIR}/${slug}.jsonl`) return true;
  return ARTIFACT_KINDS.some((kind) => path.startsWith(`${artifactDirFor(kind, slug)}/`));
}

/**
 * The absolute path a seed file goes to in the clone `root`, after every check above; no folder on the
 * way may be a symlink (checked from the top, before anything is created).
 */
export async function seedTarget(host: Host, root: string, slug: string, path: string): Promise<string> {
  const parts = segmentsOf(path, 'seed file');
  if (!isRequirementFile(slug, path)) throw refused(`seed file ${JSON.stringify(path)} is not one of ${slug}'s artifacts, state or journal`);
  let at = root;
  for (const p of parts) {
    at = `${at}/${p}`;
    const info = await host.lstat(at);
    if (info === null) break;
    if (info.kind === 'symlink') throw refused(`seed file ${JSON.stringify(path)} would be written through the symlink ${at}`);
  }
  return `${root}/${path}`;
}

/**
 * Refuses a checkpoint whose changes (against the commit it sits on) touch git's own files, add a
 * submodule, or add a symlink that leads out of the clone or into `.git`. Read with one git process,
 * plus one per symlink it adds.
 */
export async function checkCheckpointPaths(host: Host, root: string, parent: string, sha: string, ref: string): Promise<void> {
  const out = await hooklessGit(host, root, ['diff-tree', '-r', '-z', '--no-renames', '--no-commit-id', parent, sha]);
  const fields = out.split('\0');
  for (let i = 0; i + 1 < fields.length; i += 2) {
    const [, dstMode, , dstSha] = fields[i].split(' ');
    const path = fields[i + 1];
    segmentsOf(path, `${ref}: file`);
    if (dstMode === '160000') throw refused(`${ref}: ${JSON.stringify(path)} is a submodule`);
    if (dstMode === '120000') {
      const target = await hooklessGit(host, root, ['cat-file', 'blob', dstSha]);
      if (!symlinkStaysInside(path, target))
        throw refused(`${ref}: the symlink ${JSON.stringify(path)} leads to ${JSON.stringify(target)}, outside the work tree or into .git`);
    }
  }
}

/** Whether a symlink at `path` pointing to `target` (relative) resolves inside the work tree and outside `.git`. */
function symlinkStaysInside(path: string, target: string): boolean {
  if (target.startsWith('/') || target.includes('\0') || target.includes('\\')) return false;
  const at = path.split('/').slice(0, -1);
  for (const p of target.split('/')) {
    if (p === '' || p === '.') continue;
    if (p === '..') {
      if (at.length === 0) return false;
      at.pop();
    } else at.push(p);
  }
  return at.length === 0 || !GIT_DIR_NAME.test(at[0]);
}
