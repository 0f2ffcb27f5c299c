import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { freshBundle } from '../../scripts/test/fresh-bundle.mjs';
import { childOutput } from './child-output.ts';
import { reap, spawnReaped } from './reap-children.ts';

const sourceEntry = fileURLToPath(new URL('../../plugins/cli/main.ts', import.meta.url));

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  input?: string;
  timeoutMs?: number;
}

/** Runs a program with `input` on stdin and collects its output (the child is reaped at exit or after the timeout). */
export function runProcess(command: string, args: readonly string[], options: RunOptions = {}): Promise<CliRun> {
  const child = spawnReaped(command, args, { cwd: options.cwd, env: options.env ?? process.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const output = childOutput(child);
  // A hang catcher, not a speed limit: generous for a loaded machine; the whole process group goes.
  const timer = setTimeout(() => reap(child), options.timeoutMs ?? 300_000);
  // A program may exit without reading its stdin (a launcher that answers at once); the pipe closing
  // first is not the test's failure, and the exit code and output still say what happened.
  child.stdin!.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE') throw error;
  });
  child.stdin!.end(options.input ?? '');
  return output.then(({ code, stdout, stderr }) => ({ code, stdout, stderr })).finally(() => clearTimeout(timer));
}

let bundle: string | undefined;

/**
 * The bundled CLI (dist/sluice.mjs, rebuilt first when a source file is newer): the command as a user
 * runs it, and plain node starts it for a fraction of the CPU node+tsx spends compiling the sources.
 */
export function sluiceEntry(): string {
  if (bundle === undefined) bundle = freshBundle();
  return bundle;
}

/** Runs the sluice CLI from its TypeScript sources (node + tsx), for a test of the source entry itself. */
export function runCliFromSource(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string } = {}): Promise<CliRun> {
  return runProcess(process.execPath, ['--import=tsx', sourceEntry, ...args], { ...options, env: { ...process.env, NO_COLOR: '1', ...options.env } });
}

/** Runs the sluice CLI (the bundle, see sluiceEntry), as a user would run the command. */
export function runCli(args: string[], options: { cwd?: string; env?: Record<string, string>; input?: string; timeoutMs?: number } = {}): Promise<CliRun> {
  return runProcess(process.execPath, [sluiceEntry(), ...args], { ...options, env: { ...process.env, NO_COLOR: '1', ...options.env } });
}

/** The error of a `--json` run that failed: asserts the exit code (showing the output when it differs) and `ok: false`. */
export function jsonError(r: CliRun, exit: number): { code: string; message: string } & Record<string, unknown> {
  assert.equal(r.code, exit, r.stdout || r.stderr);
  const doc = JSON.parse(r.stdout) as { ok: boolean; error: { code: string; message: string } };
  assert.equal(doc.ok, false, r.stdout);
  return doc.error;
}
