import { execFileSync, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { spawnReaped } from '../helpers/reap-children.ts';
import { repoRoot } from './repo-files.ts';

/**
 * The CLI as users run it: dist/sluice.mjs (plain node starts it several times faster than
 * node+tsx, which matters for tests that start hundreds of processes). Rebuilt with
 * `node scripts/build.mjs` when missing or older than a source file; the build is serialized with
 * flock so two test files never write dist/ at once.
 */
const DIST = join(repoRoot, 'dist', 'sluice.mjs');
let ready: string | undefined;

export function cliBundle(): string {
  if (ready) return ready;
  // Two files finding it stale at once build one after the other (a build takes seconds).
  if (!fresh()) execFileSync('flock', ['/tmp/sluice-hardening-build.lock', process.execPath, 'scripts/build.mjs'], { cwd: repoRoot, stdio: 'ignore' });
  return (ready = DIST);
}

function fresh(): boolean {
  if (!existsSync(DIST)) return false;
  const built = statSync(DIST).mtimeMs;
  const newer = (dir: string): boolean =>
    readdirSync(dir, { withFileTypes: true }).some((e) => {
      const path = join(dir, e.name);
      return e.isDirectory() ? newer(path) : statSync(path).mtimeMs > built;
    });
  return (
    !['core', 'plugins', 'gates', 'delegates', 'skills'].some((d) => newer(join(repoRoot, d))) && statSync(join(repoRoot, 'package.json')).mtimeMs <= built
  );
}

export interface CliResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

/** `sluice --cwd DIR ARGS` as a child process; no colour, no parse cache outside the test. */
export function startSluice(dir: string, args: readonly string[], env: Record<string, string> = {}): { child: ChildProcess; done: Promise<CliResult> } {
  const started = performance.now();
  // Its own process group, killed when the test process ends: a hung run never outlives the suite.
  const child = spawnReaped(process.execPath, [cliBundle(), '--cwd', dir, ...args], {
    env: { ...process.env, NO_COLOR: '1', SLUICE_NO_CACHE: '1', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  const done = new Promise<CliResult>((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr, ms: performance.now() - started }));
  });
  return { child, done };
}

export const runSluice = (dir: string, args: readonly string[], env?: Record<string, string>) => startSluice(dir, args, env).done;
