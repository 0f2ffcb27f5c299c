import { join } from 'pathe';
import type { Kernel } from '../../../core/index.ts';
import type { SdlcPaths } from './project-paths.ts';

/**
 * Before `init --force` replaces a project's state and frozen files, copies them to
 * `.sdlc/backups/<timestamp>/` (state.yaml, profile.yaml, phase-registry.yaml, allowed_signers, compliance/), so
 * the history of approvals it drops is never lost. Returns the backup folder.
 */
export async function backupProject(kernel: Kernel, paths: SdlcPaths): Promise<string> {
  const { host } = kernel;
  const stamp = host.now().toISOString().replace(/[:.]/g, '-');
  let dir = join(paths.backups, stamp);
  for (let n = 2; await host.stat(dir); n++) dir = join(paths.backups, `${stamp}-${n}`);
  await host.mkdir(dir);
  for (const file of [paths.state, paths.profile, paths.registry, join(paths.dir, 'allowed_signers')]) {
    if ((await host.stat(file))?.kind === 'file') await host.copyFile(file, join(dir, file.slice(paths.dir.length + 1)));
  }
  if ((await host.stat(paths.complianceDir))?.kind === 'dir') {
    await host.mkdir(join(dir, 'compliance'));
    for (const e of await host.listDir(paths.complianceDir)) {
      if (e.kind === 'file') await host.copyFile(join(paths.complianceDir, e.name), join(dir, 'compliance', e.name));
    }
  }
  return dir;
}
