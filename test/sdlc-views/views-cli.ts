import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { childOutput } from '../helpers/child-output.ts';
import { reap, spawnReaped } from '../helpers/reap-children.ts';
import { sluiceEntry } from '../helpers/run-cli.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** The bundled CLI (dist/sluice.mjs, rebuilt first when stale; see test/helpers/run-cli.ts). */
const cliBundle = sluiceEntry;

/** The status parse cache of these runs: kept out of the user's ~/.cache, removed with the bundle. */
const cacheDir = join(tmpdir(), `sluice-views-test-cache-${process.pid}`);

export async function removeCliBundle(): Promise<void> {
  await rm(cacheDir, { recursive: true, force: true });
}

/** Runs `sluice ARGS` in `cwd` (via --cwd), without colour, and collects its output and exit code. */
export async function sluice(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const entry = cliBundle();
  const child = spawnReaped(process.execPath, [entry, ...args, '--cwd', cwd], {
    env: { ...process.env, NO_COLOR: '1', SLUICE_CACHE_DIR: cacheDir, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const output = childOutput(child);
  // A hang catcher, not a speed limit: generous for a loaded machine; the whole process group goes.
  const timer = setTimeout(() => reap(child), 300_000);
  const { code, stdout, stderr } = await output.finally(() => clearTimeout(timer));
  return { code, stdout, stderr };
}

/** `sluice ARGS --json`, parsed; fails the test with the output when stdout is not one JSON document. */
export async function sluiceJson<T = Record<string, unknown>>(
  cwd: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; doc: T; stderr: string }> {
  const r = await sluice(cwd, [...args, '--json'], env);
  try {
    return { code: r.code, doc: JSON.parse(r.stdout) as T, stderr: r.stderr };
  } catch {
    throw new Error(`sluice ${args.join(' ')} --json printed no JSON (exit ${r.code}):\n${r.stdout}\n${r.stderr}`);
  }
}

/**
 * Call once per test file: the returned function makes an empty project folder (`prefix`), or one
 * `sluice init INIT_ARGS` made (asserted to succeed); all of them, and the CLI's cache, are removed
 * when the file ends.
 */
export function projectsRemovedAfterTests(): (prefix: string, initArgs?: string[]) => Promise<string> {
  const dirs: string[] = [];
  after(async () => {
    for (const d of dirs) await rm(d, { recursive: true, force: true });
    await removeCliBundle();
  });
  return async (prefix, initArgs) => {
    const dir = await mkdtemp(join(tmpdir(), prefix));
    dirs.push(dir);
    if (initArgs) await initProject(dir, initArgs);
    return dir;
  };
}

/** `sluice init ARGS` in `dir`; fails the test with its stderr unless it succeeds. */
export async function initProject(dir: string, args: string[]): Promise<void> {
  const init = await sluice(dir, ['init', ...args]);
  assert.equal(init.code, 0, init.stderr);
}
