import { join } from 'pathe';
import { acquireLock, SluiceError, type Kernel } from '../../core/index.ts';
import { checkSkillFolder } from './read-skill.ts';
import { changedPaths, syncTree } from './skill-folders.ts';
import { openRunDir } from './tune-setup.ts';
import { skillDirOf, stateFileOf, workspacePaths as P } from './tune-workspace.ts';

export interface RestoreResult {
  runDir: string;
  /** `backup` or `iteration N`. */
  source: string;
  skills: { id: string; path: string; changed: string[] }[];
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
    return { runDir: workDir, source: iteration === undefined ? 'backup' : `iteration ${iteration}`, skills };
  } finally {
    await lock.release();
  }
}
