import type { ChildProcess } from 'node:child_process';
import { childOutput } from '../helpers/child-output.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { sluiceEntry } from '../helpers/run-cli.ts';

/** The CLI as users run it: dist/sluice.mjs, rebuilt when stale (see test/helpers/run-cli.ts). */
export const cliBundle = sluiceEntry;

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
  const done = childOutput(child).then((output) => ({ ...output, ms: performance.now() - started }));
  return { child, done };
}

export const runSluice = (dir: string, args: readonly string[], env?: Record<string, string>) => startSluice(dir, args, env).done;
