import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The reference SDLC plugin (Python 3 + PyYAML) beside the repository: `../shared/reference/claude-code-sdlc`
 * from the repo root. A git worktree elsewhere may point at it with SLUICE_SHARED_DIR (the `shared` folder).
 * `skip` is the visible reason to skip when it (or python3 with PyYAML) is absent.
 */
export const referencePlugin: { dir: string; skip: false } | { dir: undefined; skip: string } = (() => {
  const candidates = [resolve(repoRoot, '../shared'), ...(process.env.SLUICE_SHARED_DIR ? [resolve(process.env.SLUICE_SHARED_DIR)] : [])].map((s) =>
    join(s, 'reference', 'claude-code-sdlc'),
  );
  const dir = candidates.find((d) => existsSync(join(d, 'scripts', 'check_gates.py')));
  return dir
    ? { dir, skip: false }
    : { dir: undefined, skip: `the reference plugin is not at ${candidates.join(' or ')} (set SLUICE_SHARED_DIR to the shared folder to run these checks)` };
})();

export interface ScriptRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs one of the reference's scripts with python3 in `cwd`; the child is always waited for. */
export function runReferenceScript(script: string, args: string[], cwd: string): Promise<ScriptRun> {
  if (referencePlugin.dir === undefined) throw new Error(referencePlugin.skip);
  const path = join(referencePlugin.dir, 'scripts', script);
  return new Promise((done, fail) => {
    const child = spawn('python3', [path, ...args], { cwd, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
  });
}

/**
 * The reference's read-side scripts on a project: the dashboard, the gate check and a dry-run
 * advance. Each must run to its own verdict (exit 0 or 1), never crash (a traceback, exit 2).
 */
export async function referenceStillRuns(dir: string): Promise<string[]> {
  const problems: string[] = [];
  for (const script of ['generate_status.py', 'check_gates.py', 'advance_phase.py']) {
    const r = await runReferenceScript(script, ['--state', '.sdlc/state.yaml'], dir);
    if ((r.code !== 0 && r.code !== 1) || /Traceback/.test(r.stderr))
      problems.push(`${script} exited ${r.code}: ${(r.stderr || r.stdout).trim().split('\n').slice(-3).join(' | ')}`);
  }
  return problems;
}
