import { createHash } from 'node:crypto';
import { realpath, rm } from 'node:fs/promises';
import { dirname, basename, join } from 'node:path';
import { userFolders } from '../../core/index.ts';

/**
 * Removes this machine's anchor of the journal at `journal` (absolute), as if the project had been
 * cloned fresh here: what a test of adopting records sluice never anchored needs after it deleted a
 * journal sluice wrote (which, anchored, reads as JOURNAL_ROLLED_BACK).
 */
export async function forgetAnchor(journal: string, env: Record<string, string | undefined> = process.env): Promise<void> {
  const real = `${await realpath(dirname(journal))}/${basename(journal)}`;
  const state = userFolders(
    (n) => env[n],
    () => process.env.HOME ?? '/',
  ).state;
  await rm(join(state, 'anchors', `${createHash('sha256').update(real).digest('hex').slice(0, 40)}.json`), { force: true });
}
