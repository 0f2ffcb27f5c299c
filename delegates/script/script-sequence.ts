import { basename, join } from 'pathe';
import { sha256Hex, type Kernel } from '../../core/index.ts';
import { ScriptSequenceStateSchema, type ScriptSequenceState } from './script-schema.ts';

/** Folder holding `replies:` sequence positions; deleting it (or `sluice delegate --to script --reset`) restarts every sequence. */
export const sequenceDir = (projectRoot: string) => join(projectRoot, '.sluice', 'script-delegate');

/** `<basename>.<short hash of the absolute path>.json`: readable, and two scripts with one name do not collide. */
export function sequenceStatePath(projectRoot: string, scriptPath: string): string {
  const hash = sha256Hex(scriptPath).slice(0, 10);
  return join(sequenceDir(projectRoot), `${basename(scriptPath)}.${hash}.json`);
}

/**
 * Takes the next position of a sequence and records it, under the state store's cross-process lock,
 * so parallel calls get distinct replies and a resumed run continues where the last one stopped.
 */
export async function takeSequencePosition(kernel: Kernel, scriptPath: string, key: string): Promise<number> {
  const path = sequenceStatePath(kernel.projectRoot, scriptPath);
  await kernel.host.mkdir(sequenceDir(kernel.projectRoot));
  let taken = 0;
  await kernel.store.update(
    { path, schema: ScriptSequenceStateSchema },
    (state): ScriptSequenceState => {
      taken = state.positions[key] ?? 0;
      return { ...state, script: scriptPath, positions: { ...state.positions, [key]: taken + 1 } };
    },
    { initial: (): ScriptSequenceState => ({ version: 1, script: scriptPath, positions: {} }), purpose: 'script delegate sequence' },
  );
  return taken;
}

/** Forgets every recorded sequence position of this project. */
export async function resetSequences(kernel: Kernel): Promise<string> {
  const dir = sequenceDir(kernel.projectRoot);
  await kernel.host.remove(dir, { recursive: true });
  return dir;
}
