import { constants } from 'node:fs';
import { access, stat } from 'node:fs/promises';
import { delimiter, isAbsolute, join, resolve } from 'node:path';

/**
 * Finds a command the way execve would, without a shell: a name with a slash is taken as a path
 * (relative to `cwd`); a bare name is looked up in each PATH entry for an executable regular file.
 */
export async function findExecutable(command: string, pathEnv: string | undefined, cwd: string): Promise<string | undefined> {
  if (command.includes('/')) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return (await isExecutableFile(full)) ? full : undefined;
  }
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (dir === '') continue;
    const full = join(dir, command);
    if (await isExecutableFile(full)) return full;
  }
  return undefined;
}

async function isExecutableFile(path: string): Promise<boolean> {
  try {
    if (!(await stat(path)).isFile()) return false;
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}
