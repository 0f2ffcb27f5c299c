import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { runProcess, sluiceEntry, type CliRun } from './run-cli.ts';

const quote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A `skip` reason when `script` (util-linux), which gives a command a pseudo-terminal, is missing. */
export const scriptMissing: string | false = (() => {
  try {
    execFileSync('script', ['-qec', 'true', '/dev/null'], { stdio: 'pipe' });
    return false;
  } catch {
    return '`script` (util-linux) is not installed: no pseudo-terminal to answer on';
  }
})();

/**
 * The built CLI on a pseudo-terminal (`script`), with `typed` as what the person types: the way a person
 * at a terminal answers sluice's questions. Output and prompts come back together in `stdout`.
 */
export function runCliOnTerminal(root: string, args: string[], typed: string): Promise<CliRun> {
  const line = [process.execPath, sluiceEntry(), '--cwd', root, ...args].map(quote).join(' ');
  return runProcess('script', ['-qec', line, '/dev/null'], { input: typed, env: { ...process.env, NO_COLOR: '1' } });
}

/** A `skip` reason when bubblewrap cannot give a command its own view of the account's home. */
export const bwrapMissing: string | false =
  spawnSync('bwrap', ['--dev-bind', '/', '/', 'true']).status === 0 ? false : 'bubblewrap (bwrap) cannot run here: no private account home for the grant';

/**
 * The built CLI run as this account, but with its own `~/.config/sluice` holding `files` (owner-only):
 * the home from the password database is replaced, for that process alone, by a temporary one
 * (bubblewrap), so a grant in the user's config is tested without touching the real one.
 */
export async function runCliWithAccountConfig(root: string, args: string[], files: Record<string, string>): Promise<CliRun> {
  const home = userInfo().homedir;
  const fake = await mkdtemp(join(tmpdir(), 'sluice-account-'));
  const folder = join(fake, '.config', 'sluice');
  await mkdir(folder, { recursive: true, mode: 0o700 });
  for (const [name, text] of Object.entries(files)) {
    await writeFile(join(folder, name), text);
    await chmod(join(folder, name), 0o600);
  }
  // Over the real folder when there is one; else over the whole home (nothing in it is created or seen).
  const real = join(home, '.config', 'sluice');
  const bind = existsSync(real) ? ['--bind', folder, real] : ['--bind', fake, home];
  return runProcess('bwrap', ['--dev-bind', '/', '/', ...bind, process.execPath, sluiceEntry(), '--cwd', root, ...args], {
    env: { ...process.env, HOME: home, NO_COLOR: '1' },
  });
}
