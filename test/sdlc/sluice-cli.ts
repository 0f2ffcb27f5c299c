import { runProcess, sluiceEntry, type CliRun } from '../helpers/run-cli.ts';

/** The bundled CLI, dist/sluice.mjs (rebuilt first when stale; see test/helpers/run-cli.ts). */
export async function sluiceBundle(): Promise<string> {
  return sluiceEntry();
}

/** `sluice --cwd DIR ARGS` as a child process of the bundled CLI. */
export async function runSluice(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const entry = await sluiceBundle();
  return runProcess(process.execPath, [entry, '--cwd', dir, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
}
