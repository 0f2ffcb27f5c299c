import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after } from 'node:test';
import { cliBundle, startSluice, type CliResult } from '../hardening/cli-bundle.ts';
import { childOutput } from '../helpers/child-output.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { fakeBin } from './delegate-kernel.ts';
import { fakeCliRecords } from './fake-cli-harness.ts';

/**
 * Shared by the real-cli-*.test.ts files: real AI CLIs' failure shapes (hang, offline retry loop,
 * daemon holding stdout, JSON error result, sluice itself sent SIGTERM/SIGHUP) played by the fakes
 * in test/fixtures/bin against the built CLI. Tests assert outcomes and messages, never durations;
 * a guard kills a sluice that never ends (reported as hung), and every process a test learns of is
 * killed when the file ends.
 */
// The fakes come first on PATH here too, so the trust hash (which covers the resolved CLIs) matches the child's.
if (!process.env.PATH?.startsWith(fakeBin)) process.env.PATH = `${fakeBin}:${process.env.PATH ?? ''}`;

const trusted = new Map<string, Record<string, string>>();
/** The project's config sets delegate settings: the test trusts it, as a CI host would. */
export const trust = async (root: string) => void trusted.set(root, await trustedEnv(root));
export const env = (root: string) => ({ PATH: process.env.PATH!, ...trusted.get(root) });

const leftovers = new Set<number>();
export const remember = (...pids: number[]) => pids.forEach((p) => leftovers.add(p));

/** Call once per test file: kills whatever the tests started and learned the pid of. */
export function reapAfterTests(): void {
  after(() => {
    for (const pid of leftovers) {
      try {
        process.kill(pid, 'SIGKILL');
      } catch {
        // gone
      }
    }
  });
}

/**
 * A project whose backend (claude unless `o.backend` says) records its calls into `record`; `o.env` is
 * added to the backend's environment, `settings` to its settings.
 */
export async function project(settings: Record<string, unknown> = {}, o: { backend?: string; env?: Record<string, string> } = {}) {
  const backend = o.backend ?? 'claude';
  const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
  const record = await mkdtemp(join(tmpdir(), 'sluice-robust-record-'));
  const env = { FAKE_CLI_RECORD: record, FAKE_CLI_STATE: join(record, 'state'), ...o.env };
  await writeFile(join(root, 'sluice.config.yaml'), JSON.stringify({ delegates: { [backend]: { env, killGrace: 0.3, ...settings } } }));
  await trust(root);
  return { root, record, records: () => fakeCliRecords(record, backend) };
}

/** Runs sluice; a run still going after `guardMs` is killed and reported as hung. */
export async function sluice(root: string, args: string[], guardMs = 90_000): Promise<CliResult & { hung: boolean }> {
  const run = startSluice(root, args, env(root));
  if (run.child.pid) remember(run.child.pid);
  let hung = false;
  const guard = setTimeout(() => ((hung = true), run.child.kill('SIGKILL')), guardMs);
  const r = await run.done;
  clearTimeout(guard);
  return { ...r, hung };
}

/** Runs sluice with `input` on its stdin (a prompt too big for a command line: `delegate ... -`). */
export async function sluiceWithInput(root: string, args: string[], input: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawnReaped(process.execPath, [cliBundle(), '--cwd', root, ...args], {
    env: { ...process.env, NO_COLOR: '1', SLUICE_NO_CACHE: '1', ...env(root) },
    stdio: ['pipe', 'pipe', 'pipe'],
  });
  if (child.pid) remember(child.pid);
  const output = childOutput(child);
  child.stdin!.end(input);
  const guard = setTimeout(() => child.kill('SIGKILL'), 90_000);
  const r = await output.finally(() => clearTimeout(guard));
  return { code: r.code, stdout: r.stdout, stderr: r.stderr };
}

/** Pids of the daemons the `daemon` fakes left (remembered for the reaper). */
export async function daemonPids(record: string): Promise<number[]> {
  const files = (await readdir(record)).filter((f) => f.includes('-daemon-'));
  const pids = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(record, f), 'utf8')).daemon as number));
  remember(...pids);
  return pids;
}
