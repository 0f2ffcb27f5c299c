import type { ChildProcess } from 'node:child_process';

/** How a child process ended, and everything it printed. */
export interface ChildOutput {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

/**
 * Collects a child's piped stdout and stderr until it closes (both streams drained); rejects when it
 * cannot start. Call it right after spawning, before any output can be missed.
 */
export function childOutput(child: ChildProcess): Promise<ChildOutput> {
  let stdout = '';
  let stderr = '';
  child.stdout!.on('data', (d) => (stdout += d));
  child.stderr!.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}
