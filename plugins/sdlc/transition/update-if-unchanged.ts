import type { Kernel } from '../../../core/index.ts';
import type { SdlcProject } from '../project/open-project.ts';
import type { SdlcState } from '../state/state-schema.ts';
import { journaledStateUpdate } from '../state/journaled-state-update.ts';
import { assertUnchanged, type ExpectedPosition } from './transitions.ts';

/**
 * Writes `write(state)` under the state lock unless another process moved the project since
 * `expected` was read (gates ran outside the lock): PHASE_MOVED then, and nothing is written.
 */
export async function updateIfUnchanged(
  kernel: Kernel,
  project: SdlcProject,
  expected: ExpectedPosition,
  write: (state: SdlcState) => SdlcState,
  purpose: string,
): Promise<SdlcState> {
  const display = kernel.display(project.paths.state);
  const { after } = await journaledStateUpdate(
    kernel,
    project.paths,
    (state) => {
      assertUnchanged(state, expected, display);
      return write(state);
    },
    { purpose, read: { text: project.stateText, state: project.state } },
  );
  return after;
}
