import { join } from 'pathe';
import type { Host, Kernel } from '../../../core/index.ts';
import { openProject } from '../../sdlc/index.ts';

/** Files under a folder, counted to any depth (0 when it does not exist). */
async function countFiles(host: Host, dir: string): Promise<number> {
  const info = await host.stat(dir);
  if (info?.kind !== 'dir') return 0;
  let n = 0;
  for (const e of await host.listDir(dir)) {
    if (e.kind === 'file') n++;
    else if (e.kind === 'dir') n += await countFiles(host, join(dir, e.name));
  }
  return n;
}

/**
 * The line the reference's session-start hook opens with, so an agent sees the same context whichever
 * hook runs: `[SDLC] Project: NAME | Profile: ID | Phase ID: NAME | Artifacts: N` (files in the
 * current phase's artifact folder). Undefined when the folder has no SDLC project.
 */
export async function projectLine(kernel: Kernel): Promise<string | undefined> {
  if (!(await kernel.host.stat(join(kernel.projectRoot, '.sdlc', 'state.yaml')))) return undefined;
  // As the other views read it: a profile's extra gate types (a `command` gate, a plugin's) need not be loaded to summarise it.
  const project = await openProject(kernel, { readOnly: true });
  const phase = project.model.require(project.state.current_phase);
  const name = (phase.display ?? phase.name).replace(/^Phase [^:]+:\s*/, '');
  const artifacts = await countFiles(kernel.host, join(project.root, project.paths.artifactDirRel(phase.slug)));
  return `[SDLC] Project: ${project.state.project_name} | Profile: ${project.state.profile_id} | Phase ${String(phase.id)}: ${name} | Artifacts: ${artifacts}`;
}
