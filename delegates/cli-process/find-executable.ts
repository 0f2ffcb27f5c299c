import { delimiter, isAbsolute, join, resolve } from 'pathe';
import type { Host } from '../../core/index.ts';

/**
 * Finds a command the way execve would, without a shell: a name with a slash is taken as a path
 * (relative to `cwd`); a bare name is looked up in each PATH entry for an executable regular file.
 */
export async function findExecutable(host: Host, command: string, pathEnv: string | undefined, cwd: string): Promise<string | undefined> {
  if (command.includes('/')) {
    const full = isAbsolute(command) ? command : resolve(cwd, command);
    return (await host.isExecutable(full)) ? full : undefined;
  }
  for (const dir of (pathEnv ?? '').split(delimiter)) {
    if (dir === '') continue;
    const full = join(dir, command);
    if (await host.isExecutable(full)) return full;
  }
  return undefined;
}
