import { join } from 'pathe';
import { acquireLock, isInside, SluiceError, type Kernel } from '../../core/index.ts';
import { checkSkillFolder } from './read-skill.ts';
import { changedPaths, sameBytes, syncTree } from './skill-folders.ts';
import { openRunDir } from './tune-setup.ts';
import type { IterationState } from './iteration-state-schema.ts';
import { skillDirOf, stateFileOf, workspacePaths as P } from './tune-workspace.ts';

export interface RestoreResult {
  runDir: string;
  /** `backup` or `iteration N`. */
  source: string;
  skills: { id: string; path: string; changed: string[] }[];
  /** What the executor or improver changed outside its folder: put back again from the kept copies, or not restorable. */
  outside: { putBack: string[]; couldNot: { path: string; why: string }[] };
}

/**
 * `sluice tune --restore RUN_DIR [--iteration N]`: makes each skill folder identical to the run's
 * backup (the skills before the run) or to the snapshot iteration N ran. Refused while the run is
 * being driven by another live process.
 */
export async function restoreSkills(kernel: Kernel, runDirArg: string, iteration?: number): Promise<RestoreResult> {
  const workDir = await openRunDir(kernel, runDirArg);
  const lock = await acquireLock(kernel.host, join(workDir, P.lock), {
    waitMs: 0,
    purpose: 'sluice tune --restore',
    display: kernel.display(join(workDir, P.lock)),
  });
  try {
    const state = await kernel.store.read(stateFileOf(workDir));
    if (iteration === undefined && state.status === 'setup') {
      throw new SluiceError('TUNE_RUN_INVALID', {
        file: kernel.display(workDir),
        message: 'the run stopped during setup, before changing any skill; there is nothing to restore',
      });
    }
    const it = iteration === undefined ? undefined : state.iterations.find((x) => x.round === iteration);
    if (iteration !== undefined && (!it || it.phase === 'started')) {
      throw new SluiceError('USAGE', {
        message: `iteration ${iteration} has no skill snapshot in ${kernel.display(workDir)} (iterations with snapshots: ${
          state.iterations
            .filter((x) => x.phase !== 'started')
            .map((x) => x.round)
            .join(', ') || 'none'
        })`,
      });
    }
    const sources = state.skills.map((s) => ({ s, from: join(workDir, iteration === undefined ? P.backup(s.id) : P.snapshot(iteration, s.id)) }));
    // Check every source before touching any skill, so a damaged run folder restores nothing rather than half.
    for (const { from } of sources) {
      const check = await checkSkillFolder(kernel.host, from);
      if (!check.ok)
        throw new SluiceError('TUNE_RUN_INVALID', { file: kernel.display(from), field: check.field, message: `cannot restore from it: ${check.message}` });
    }
    const skills: RestoreResult['skills'] = [];
    for (const { s, from } of sources) {
      const changes = await syncTree(kernel.host, from, await skillDirOf(kernel, s));
      skills.push({ id: s.id, path: s.path, changed: changedPaths(changes) });
    }
    const outside = await restoreOutside(kernel, workDir, state);
    return { runDir: workDir, source: iteration === undefined ? 'backup' : `iteration ${iteration}`, skills, outside };
  } finally {
    await lock.release();
  }
}

/**
 * Every change a call made outside its folder was put back right after the call; this does it
 * again where a copy was kept (the rollback failed, or the file changed since), removes an added
 * path the rollback could not, and names what cannot be undone (no copy: a symlink, a large file).
 */
async function restoreOutside(kernel: Kernel, workDir: string, state: IterationState): Promise<RestoreResult['outside']> {
  const { host, projectRoot } = kernel;
  const out: RestoreResult['outside'] = { putBack: [], couldNot: [] };
  const records = state.iterations.flatMap((it) => [...(it.execution?.outside_changes ?? []), ...(it.improvement?.outside_changes ?? [])]);
  const done = new Set<string>();
  for (const r of records) {
    const abs = r.path.startsWith('/') ? r.path : join(projectRoot, r.path);
    // Only what the run recorded, and a project path only inside the project.
    if (done.has(abs) || (!r.path.startsWith('/') && !isInside(projectRoot, abs))) continue;
    done.add(abs);
    try {
      if (r.copy) {
        const copy = await host.readBytes(join(workDir, r.copy));
        const now = await host.readBytes(abs).catch(() => undefined);
        if (!now || !sameBytes(now, copy)) {
          await host.mkdir(join(abs, '..'));
          await host.writeAtomic(abs, copy);
          out.putBack.push(r.path);
        }
      } else if (r.change === 'added') {
        if (!r.restored && (await host.lstat(abs))) {
          await host.remove(abs, { recursive: true });
          out.putBack.push(r.path);
        }
      } else if (!r.restored) out.couldNot.push({ path: r.path, why: `${r.role} ${r.change} it; ${r.note ?? 'no copy was kept'}` });
    } catch (error) {
      out.couldNot.push({ path: r.path, why: error instanceof Error ? error.message : String(error) });
    }
  }
  return out;
}
