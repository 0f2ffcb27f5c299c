import { copyFile, mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { bundleScript } from '../helpers/bundle-script.ts';
import { reap, spawnReaped } from '../helpers/reap-children.ts';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

let bundled: Promise<string> | undefined;
let bundleDir: string | undefined;

/**
 * Bundles the real CLI entry once per test file and moves it inside the repo (so `sluiceAsset`
 * finds the package folder and its bundled registry), then runs it with plain node: every command
 * of a multi-step walkthrough costs one node start instead of one tsx start.
 */
function cliBundle(): Promise<string> {
  bundled ??= (async () => {
    const built = await bundleScript('plugins/cli/main.ts');
    const cache = resolve('node_modules/.cache');
    await mkdir(cache, { recursive: true });
    bundleDir = await mkdtemp(join(cache, 'sluice-views-test-'));
    const entry = join(bundleDir, 'sluice.mjs');
    await copyFile(built, entry);
    await rm(dirname(built), { recursive: true, force: true });
    return entry;
  })();
  return bundled;
}

/** The status parse cache of these runs: kept out of the user's ~/.cache, removed with the bundle. */
const cacheDir = join(tmpdir(), `sluice-views-test-cache-${process.pid}`);

export async function removeCliBundle(): Promise<void> {
  if (bundleDir) await rm(bundleDir, { recursive: true, force: true });
  await rm(cacheDir, { recursive: true, force: true });
}

/** Runs `sluice ARGS` in `cwd` (via --cwd), without colour, and collects its output and exit code. */
export async function sluice(cwd: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  const entry = await cliBundle();
  return new Promise((done, fail) => {
    const child = spawnReaped(process.execPath, [entry, ...args, '--cwd', cwd], {
      env: { ...process.env, NO_COLOR: '1', SLUICE_CACHE_DIR: cacheDir, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout!.on('data', (d) => (stdout += d));
    child.stderr!.on('data', (d) => (stderr += d));
    // A hang catcher, not a speed limit: generous for a loaded machine; the whole process group goes.
    const timer = setTimeout(() => reap(child), 300_000);
    child.on('error', fail);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, stdout, stderr });
    });
  });
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
