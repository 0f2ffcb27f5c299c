import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { snapshotRecords } from '../helpers/forget-anchor.ts';
import { data, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';

/** An SDLC project at phase 0 with its artifacts written, and the `next` line that advances it. */
export async function projectReadyToAdvance(
  prefix: string,
): Promise<{ dir: string; statePath: string; oldText: string; args: string[]; restoreRecords: () => void }> {
  const dir = await tempDir(prefix);
  const kernel = await sdlcKernel(dir);
  await sluice(kernel, 'init');
  await writeCurrentArtifacts(kernel);
  const approve = data<{ unapproved: { id: string }[] }>(await sluice(kernel, 'next')).unapproved.map((m) => m.id);
  const statePath = join(dir, '.sdlc', 'state.yaml');
  return {
    dir,
    statePath,
    oldText: readFileSync(statePath, 'utf8'),
    // Putting the old state.yaml back means putting back its journal and anchor too (else: STATE_TAMPERED).
    restoreRecords: snapshotRecords(join(dir, '.sdlc', 'journal.jsonl')),
    args: ['next', ...approve.flatMap((id) => ['--approve', id]), '--signed-by', 'Ana Ruiz', '--confirmed', '--json'],
  };
}
