import { mkdtemp, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as v from 'valibot';
import { createKernel, SluiceConfigSchema, type Kernel } from '../../core/index.ts';
import { delegatePlugins } from '../../delegates/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runProcess, sluiceEntry, type CliRun } from '../helpers/run-cli.ts';

export const repoRoot = resolve(import.meta.dirname, '../..');
export const fakeBin = join(repoRoot, 'test/fixtures/bin');

export const tempProject = () => mkdtemp(join(tmpdir(), 'sluice-delegates-'));

/** A kernel with the real Node host and every bundled delegate, rooted in `root`. */
export async function delegateKernel(root: string, config: Record<string, unknown> = {}, concurrency?: number): Promise<Kernel> {
  return createKernel({
    host: createNodeHost({ cwd: root }),
    projectRoot: root,
    config: v.parse(SluiceConfigSchema, config),
    plugins: delegatePlugins,
    concurrency,
  });
}

export async function writeScript(root: string, name: string, yaml: string): Promise<string> {
  const path = join(root, name);
  await writeFile(path, yaml);
  return path;
}

/** Runs the sluice CLI (the bundle), as a user would. */
export function runSluice(args: string[], o: { cwd: string; input?: string; env?: Record<string, string> }): Promise<CliRun> {
  return runProcess(process.execPath, [sluiceEntry(), ...args], {
    cwd: repoRoot,
    env: { ...process.env, NO_COLOR: '1', ...o.env },
    input: o.input,
  });
}

/** `sluice delegate --cwd ROOT ARGS` through the bundle, as a user in `root` would run it. */
export function sluiceDelegate(root: string, args: string[], o: { input?: string; env?: Record<string, string> } = {}): Promise<CliRun> {
  return runSluice(['delegate', '--cwd', root, ...args], { cwd: root, ...o });
}
