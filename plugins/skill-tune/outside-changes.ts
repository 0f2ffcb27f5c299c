import { dirname, join, relative } from 'pathe';
import { isInside, userFolders, type Host } from '../../core/index.ts';
import type { OutsideChangeRecord } from './iteration-state-schema.ts';
import { skillLockName } from './skill-locks.ts';
import { inRun, workspacePaths as P, type TuneRun } from './tune-workspace.ts';

/**
 * The executor and the improver run in write mode, and a backend's write mode reaches further than
 * the one folder they are given (a shell, an absolute path). So, as the delegate runner checks an
 * analysis run, each call is watched: a snapshot before it (kind, size and mtime of every entry, and
 * a copy of each small file) of the project (including `.sluice/` and the run folder itself, minus
 * the call's own folder), sluice's config folders and the sensitive files of $HOME; after it, every entry that
 * changed is put back from the copy (an added one is removed) and reported. What had no copy (too
 * large, a symlink) is reported as not restored. The copies of what changed are kept in the run
 * folder, so `sluice tune --restore` can put them back again.
 */
const SKIP_NAMES = new Set(['.git', '.hg', '.svn', 'node_modules']);
/**
 * sluice's own bookkeeping, which it (or another sluice process in the project) may write while a call
 * runs: locks, the script backend's sequence positions, transcripts, queue and worker folders, and the
 * lifecycle's records.
 */
const SLUICE_OWN = [
  '.sluice/locks',
  '.sluice/script-delegate',
  '.sluice/transcripts',
  '.sluice/queue',
  '.sluice/worker',
  '.sluice/clones',
  '.sluice/claude-settings',
  '.prizmkit/state',
];
/**
 * What in $HOME an agent could use to run code later or to take authority: shell start-up files,
 * ssh and git settings, credentials files, autostart entries, personal bin folders. Not all of
 * $HOME: other programs write there all the time (histories, caches, the AI CLIs' own sessions), and
 * putting their files back would undo someone else's work.
 */
const SENSITIVE_IN_HOME = [
  '.bashrc',
  '.bash_profile',
  '.bash_login',
  '.bash_logout',
  '.profile',
  '.zshrc',
  '.zshenv',
  '.zprofile',
  '.zlogin',
  '.config/fish',
  '.ssh',
  '.gitconfig',
  '.config/git',
  '.npmrc',
  '.pypirc',
  '.netrc',
  '.docker/config.json',
  '.config/autostart',
  '.config/systemd/user',
  '.local/bin',
  'bin',
];
const MAX_ENTRIES = 50_000;
const COPY_FILE_LIMIT = 1024 * 1024;
const COPY_BUDGET = 32 * 1024 * 1024;

interface Entry {
  sig: string;
  copy?: Uint8Array;
  /** Why no copy was kept. */
  uncopied?: string;
}

interface Root {
  dir: string;
  depth: number;
  skip: (abs: string, name: string) => boolean;
}

export interface OutsideWatch {
  /** Puts back what the call changed outside its folders and says what it changed. */
  settle(): Promise<OutsideChangeRecord[]>;
}

export async function watchOutside(run: TuneRun, role: 'executor' | 'improver', round: number, allowed: string[]): Promise<OutsideWatch> {
  const { host, projectRoot } = run.kernel;
  const runParent = dirname(run.workDir);
  const own = SLUICE_OWN.map((p) => join(projectRoot, p));
  const transcripts = inRun(run, `${P.iteration(round)}/transcripts`);
  // Skills another live tune holds are its to change (parallel runs over a queue share the project).
  const ours = new Set((await run.kernel.store.read(run.file)).skills.map((s) => skillLockName(s.path)));
  const locksDir = join(projectRoot, '.sluice', 'locks');
  const othersLocks = new Set<string>();
  const readLocks = async () => {
    for (const e of await host.listDir(locksDir).catch(() => [])) if (e.name.startsWith('tune-') && !ours.has(e.name)) othersLocks.add(e.name);
  };
  await readLocks();
  const heldByOthers = (abs: string) => {
    for (let d = abs; isInside(projectRoot, d); d = dirname(d)) if (othersLocks.has(skillLockName(relative(projectRoot, d)))) return true;
    return false;
  };
  const projectSkip = (abs: string, name: string) =>
    SKIP_NAMES.has(name) ||
    othersLocks.has(skillLockName(relative(projectRoot, abs))) ||
    own.includes(abs) ||
    allowed.some((a) => abs === a || isInside(a, abs)) ||
    // Other runs under the same parent are theirs (parallel tunes over a queue), as are the transcripts sluice writes.
    (dirname(abs) === runParent && abs !== run.workDir && name.startsWith('skill-tune-')) ||
    abs === inRun(run, P.lock) ||
    abs === transcripts ||
    isInside(transcripts, abs);
  const roots: Root[] = [{ dir: projectRoot, depth: Number.POSITIVE_INFINITY, skip: projectSkip }];
  // Git would run what these name, but the rest of .git changes under any git command.
  roots.push({ dir: join(projectRoot, '.git', 'hooks'), depth: Number.POSITIVE_INFINITY, skip: () => false });
  roots.push({ dir: join(projectRoot, '.git', 'config'), depth: 0, skip: () => false });
  const home = host.env('HOME');
  const inProject = (abs: string) => abs === projectRoot || isInside(projectRoot, abs);
  const watched = new Set<string>();
  if (home?.startsWith('/')) for (const p of SENSITIVE_IN_HOME) watched.add(join(home, p));
  // sluice's own config folders (trust, grants, keys), as the environment and the account name them; not its state and cache, which other sluice processes write.
  const folders = userFolders(
    (n) => host.env(n),
    () => host.accountHome(),
  );
  watched.add(folders.config).add(folders.account);
  for (const dir of watched) if (!inProject(dir)) roots.push({ dir, depth: Number.POSITIVE_INFINITY, skip: () => false });
  const budget = { left: COPY_BUDGET };
  const before = await snapshot(host, roots, budget);
  return {
    async settle() {
      // A tune that started during the call holds its skills now.
      await readLocks();
      const after = await snapshot(host, roots, undefined);
      for (const path of [...before.keys()]) if (heldByOthers(path)) before.delete(path);
      const records: OutsideChangeRecord[] = [];
      const added: string[] = [];
      for (const [path, entry] of after) {
        const was = before.get(path);
        if (!was) added.push(path);
        else if (was.sig !== entry.sig && !(was.sig === 'dir' && entry.sig === 'dir')) records.push(await putBack(run, role, round, path, was, 'modified'));
      }
      for (const [path, was] of before) if (!after.has(path)) records.push(await putBack(run, role, round, path, was, 'removed'));
      // Deepest first, so a new folder is emptied before it goes.
      for (const path of added.sort((a, b) => b.length - a.length)) {
        const note = await host
          .remove(path, { recursive: true })
          .then(() => undefined)
          .catch((e: unknown) => `could not remove it: ${e instanceof Error ? e.message : String(e)}`);
        records.push({ role, path: shown(run, path), change: 'added', restored: note === undefined, ...(note ? { note } : {}) });
      }
      return records.sort((a, b) => a.path.localeCompare(b.path));
    },
  };
}

/** A path as the report shows it: project-relative inside the project, else absolute. */
const shown = (run: TuneRun, abs: string) => (isInside(run.kernel.projectRoot, abs) ? relative(run.kernel.projectRoot, abs) : abs);

async function putBack(run: TuneRun, role: string, round: number, path: string, was: Entry, change: 'modified' | 'removed'): Promise<OutsideChangeRecord> {
  const { host } = run.kernel;
  const base = { role, path: shown(run, path), change };
  if (was.sig === 'dir') {
    await host.mkdir(path);
    return { ...base, restored: true };
  }
  if (!was.copy) return { ...base, restored: false, note: `no copy was kept (${was.uncopied ?? 'not a regular file'})` };
  // Kept beside the state, so --restore can put it back again.
  const keep = join(P.outsideCopies(round, role), path.replace(/^\/+/, ''));
  await host.mkdir(dirname(inRun(run, keep)));
  await host.writeAtomic(inRun(run, keep), was.copy);
  try {
    if ((await host.lstat(path))?.kind === 'symlink' || (await host.lstat(path))?.kind === 'dir') await host.remove(path, { recursive: true });
    await host.mkdir(dirname(path));
    await host.writeAtomic(path, was.copy);
    return { ...base, restored: true, copy: keep };
  } catch (e) {
    return { ...base, restored: false, copy: keep, note: `could not write it back: ${e instanceof Error ? e.message : String(e)}` };
  }
}

async function snapshot(host: Host, roots: Root[], budget: { left: number } | undefined): Promise<Map<string, Entry>> {
  const entries = new Map<string, Entry>();
  const record = async (abs: string, kind: string) => {
    if (kind === 'dir') return void entries.set(abs, { sig: 'dir' });
    const info = await host.lstat(abs);
    if (!info) return;
    const entry: Entry = { sig: `${info.kind}:${info.size}:${info.mtimeMs}` };
    if (budget) {
      if (info.kind !== 'file') entry.uncopied = `a ${info.kind}`;
      else if (info.size > COPY_FILE_LIMIT) entry.uncopied = `over ${COPY_FILE_LIMIT / 1024 / 1024} MB`;
      else if (info.size > budget.left) entry.uncopied = 'the copy budget was used up';
      else {
        // Taken before the read: the reads of one folder run at once.
        budget.left -= info.size;
        entry.copy = await host.readBytes(abs).catch(() => undefined);
        if (!entry.copy) entry.uncopied = 'it could not be read';
      }
    }
    entries.set(abs, entry);
  };
  for (const root of roots) {
    const top = await host.lstat(root.dir);
    if (!top) continue;
    if (top.kind !== 'dir') {
      await record(root.dir, top.kind);
      continue;
    }
    const stack: [string, number][] = [[root.dir, 0]];
    while (stack.length > 0 && entries.size < MAX_ENTRIES) {
      const [dir, depth] = stack.pop()!;
      const list = await host.listDir(dir).catch(() => []);
      // One folder's entries at once: the lstat calls overlap (a 700-file tree took 0.5 s one by one).
      const kept = list.filter((e) => !root.skip(join(dir, e.name), e.name));
      await Promise.all(kept.map((e) => record(join(dir, e.name), e.kind)));
      for (const e of kept) if (e.kind === 'dir' && depth + 1 <= root.depth) stack.push([join(dir, e.name), depth + 1]);
    }
  }
  return entries;
}

/** One line for a step's failure: what changed where, and what could not be put back. */
export function describeOutside(role: string, records: OutsideChangeRecord[]): string {
  const shownPaths = records.slice(0, 5).map((r) => `${r.path} (${r.change})`);
  const more = records.length > 5 ? ` and ${records.length - 5} more` : '';
  const lost = records.filter((r) => !r.restored);
  return `OUTSIDE_CHANGE: the ${role} changed ${records.length} path${records.length === 1 ? '' : 's'} outside its folder: ${shownPaths.join(', ')}${more}; ${
    lost.length ? `put back all but ${lost.map((r) => r.path).join(', ')} (see the state)` : 'all put back'
  }`;
}
