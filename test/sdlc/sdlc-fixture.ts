import { mkdir, mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createKernel, defaultConfig, type CommandOutcome, type Kernel, type PluginDefinition, type SluiceConfig } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runCommand } from '../../plugins/sdlc/demo/run-command.ts';
import { lcovReport, writePhaseArtifacts } from '../../plugins/sdlc/demo/write-phase-artifacts.ts';
import { gatePlugins } from '../../gates/index.ts';
import { sdlcPlugin } from '../../plugins/sdlc/index.ts';
import { openProject } from '../../plugins/sdlc/project/open-project.ts';
import { sdlcStateFile } from '../../plugins/sdlc/state/state-file.ts';
import type { SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import { throwawayKey, type ThrowawayKey } from '../helpers/ssh-keys.ts';

/** Test helpers: real temp folders, a real Node host and the SDLC plugins, commands run as the CLI runs them. */
export const tempDir = (prefix = 'sluice-sdlc-') => mkdtemp(join(tmpdir(), prefix));

export async function sdlcKernel(dir: string, o: { plugins?: PluginDefinition[]; config?: Partial<SluiceConfig> } = {}): Promise<Kernel> {
  return createKernel({
    host: createNodeHost({ cwd: dir }),
    projectRoot: dir,
    plugins: [sdlcPlugin, ...gatePlugins, ...(o.plugins ?? [])],
    config: { ...defaultConfig(), ...o.config },
  });
}

export type Outcome = CommandOutcome & { error?: { code: string; message: string; exitCode: number; file?: string; field?: string; plugin?: string } };

/** `sluice <name>` in-process through the registered command (same code path as the CLI after parsing). */
export async function sluice(kernel: Kernel, name: string, options: Record<string, unknown> = {}, args: string[] = []): Promise<Outcome> {
  return (await runCommand(kernel, name, args, options)) as Outcome;
}

export async function readState(kernel: Kernel): Promise<SdlcState> {
  return kernel.store.read(sdlcStateFile(join(kernel.projectRoot, '.sdlc', 'state.yaml')));
}

export async function writeFileIn(dir: string, rel: string, text: string): Promise<string> {
  const full = join(dir, rel);
  await mkdir(dirname(full), { recursive: true });
  await writeFile(full, text);
  return full;
}

/** Line coverage as a runner leaves it: two files at the given percentages. */
export function writeCoverage(dir: string, pct: number): Promise<string> {
  const found = 200;
  return writeFileIn(
    dir,
    'coverage/lcov.info',
    lcovReport([
      { path: 'src/intake/claim-handler.ts', found, hit: Math.round((found * pct) / 100) },
      { path: 'src/auth/clinic-scope.ts', found, hit: Math.round((found * pct) / 100) },
    ]),
  );
}

/** Writes what the current phase requires (and coverage above `coveragePct` in the Build loop). */
export async function writeCurrentArtifacts(kernel: Kernel, coveragePct = 95): Promise<string> {
  const project = await openProject(kernel);
  const phase = project.model.require(project.state.current_phase);
  await writePhaseArtifacts(kernel.host, kernel.projectRoot, phase, project.state.project_type ?? null);
  if (phase.continuous) await writeCoverage(kernel.projectRoot, coveragePct);
  return String(phase.id);
}

/** Completes the current phase the way a team would: artifacts, review, every manual gate approved by name, confirm. */
export async function passPhase(kernel: Kernel, signer = 'Ana Ruiz'): Promise<{ review: Outcome; advance: Outcome }> {
  await writeCurrentArtifacts(kernel);
  const review = await sluice(kernel, 'next');
  const unapproved = ((review.data as { unapproved?: { id: string }[] }).unapproved ?? []).map((m) => m.id);
  const advance = await sluice(kernel, 'next', { approve: unapproved, signedBy: signer, confirmed: true, ...(await signingFor(kernel)) });
  if (advance.exitCode !== 0) throw new Error(`could not pass phase: ${advance.human}`);
  return { review, advance };
}

let testKey: Promise<ThrowawayKey> | undefined;

/**
 * `{ sign }` for a project whose profile requires signed approvals (the enterprise pack): a throwaway
 * key made once per test process, listed in the project's .sdlc/allowed_signers. `{}` otherwise.
 */
export async function signingFor(kernel: Kernel): Promise<{ sign?: string }> {
  const profile = await readFile(join(kernel.projectRoot, '.sdlc', 'profile.yaml'), 'utf8');
  if (!/require_signed_approvals:\s*true/.test(profile)) return {};
  testKey ??= tempDir('sluice-test-key-').then((dir) => throwawayKey(dir, 'approver', 'approver@example.com'));
  const key = await testKey;
  const signers = join(kernel.projectRoot, '.sdlc', 'allowed_signers');
  const listed = await readFile(signers, 'utf8').catch(() => '');
  if (!listed.includes(key.signersLine)) await writeFile(signers, `${listed}${key.signersLine}\n`);
  return { sign: key.keyFile };
}

/** Walks forward until the given phase is current. */
export async function walkTo(kernel: Kernel, phaseId: string): Promise<void> {
  for (let i = 0; i < 12 && String((await readState(kernel)).current_phase) !== phaseId; i++) await passPhase(kernel);
}

export const data = <T = Record<string, unknown>>(o: Outcome) => o.data as T;

/**
 * Changes a frozen file (`.sdlc/profile.yaml`, the registry, a compliance file) on purpose and records
 * it with `sluice refreeze`, as a team changing its rules does: without the re-freeze, gate and next
 * refuse with FROZEN_MODIFIED.
 */
export async function editFrozen(dir: string, rel: string, edit: (text: string) => string): Promise<void> {
  const full = join(dir, rel);
  await writeFile(full, edit(await readFile(full, 'utf8')));
  const out = await runCommand(await sdlcKernel(dir), 'refreeze', [rel], { reason: 'test: the rules changed on purpose', signedBy: 'test' });
  if (out.exitCode !== 0) throw new Error(`refreeze ${rel} failed: ${out.human}`);
}
