import { join } from 'pathe';
import { acquireLock, SluiceError, type Kernel, type LockHandle } from '../../core/index.ts';

/**
 * One tune per skill at a time: two runs editing the same SKILL.md would each sync their own
 * improver's copy over the other's. Each skill of a run is locked for the whole run (in a stable
 * order, so two chains sharing skills cannot deadlock); a second run exits 3 (LOCK_BUSY).
 */
/**
 * A run killed between creating its lock file and writing its owner leaves a file nobody can read,
 * stale only after a short age (file-lock.ts); a resume right after the kill waits that out instead
 * of reporting the skill as busy. A live run still holds the lock, so a second run still exits 3.
 */
export const HALF_WRITTEN_LOCK_WAIT_MS = 3000;

export async function lockSkills(kernel: Kernel, skills: readonly { path: string }[], runDir: string): Promise<LockHandle[]> {
  const dir = join(kernel.projectRoot, '.sluice', 'locks');
  await kernel.host.mkdir(dir);
  const held: LockHandle[] = [];
  try {
    for (const path of [...new Set(skills.map((s) => s.path))].sort()) {
      const file = join(dir, skillLockName(path));
      try {
        held.push(
          await acquireLock(kernel.host, file, {
            waitMs: HALF_WRITTEN_LOCK_WAIT_MS,
            purpose: `sluice tune ${kernel.display(runDir)}`,
            display: kernel.display(file),
          }),
        );
      } catch (error) {
        if (!(error instanceof SluiceError) || error.code !== 'LOCK_BUSY') throw error;
        const holder = error.data as { pid?: number; hostname?: string } | undefined;
        throw new SluiceError('LOCK_BUSY', {
          file: kernel.display(file),
          message: `skill ${path} is already being tuned${holder?.pid === undefined ? '' : ` by process ${holder.pid} on ${holder.hostname}`}; wait for that run to finish (or stop it) and try again`,
          data: error.data,
        });
      }
    }
    return held;
  } catch (error) {
    await releaseAll(held);
    throw error;
  }
}

/** The lock file of a skill folder (project-relative path) in `.sluice/locks/`. */
export const skillLockName = (path: string) => `tune-${path.replace(/[^\w.-]+/g, '_')}.lock`;

export async function releaseAll(locks: readonly LockHandle[]): Promise<void> {
  for (const lock of [...locks].reverse()) await lock.release();
}
