import { fstatSync, readlinkSync } from 'node:fs';

/**
 * The files sluice's own stdout and stderr go to, when they are regular files (Linux names them in
 * /proc/self/fd; elsewhere none are known). Read each time: a redirect does not change, but this is
 * cheap and keeps no state.
 */
export function ownOutputFiles(): string[] {
  const files: string[] = [];
  for (const fd of [1, 2]) {
    try {
      if (!fstatSync(fd).isFile()) continue;
      const path = readlinkSync(`/proc/self/fd/${fd}`);
      if (path.startsWith('/') && !files.includes(path)) files.push(path);
    } catch {
      // closed, or no /proc: nothing known
    }
  }
  return files;
}
