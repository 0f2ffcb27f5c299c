import { createHash } from 'node:crypto';
import { existsSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
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

/** This machine's anchor file for the journal at `journal` (absolute; its folder must exist). */
export function anchorFileOf(journal: string, env: Record<string, string | undefined> = process.env): string {
  const real = `${realpathSync(dirname(journal))}/${basename(journal)}`;
  const state = userFolders(
    (n) => env[n],
    () => process.env.HOME ?? '/',
  ).state;
  return join(state, 'anchors', `${createHash('sha256').update(real).digest('hex').slice(0, 40)}.json`);
}

/**
 * The journal and this machine's anchor of it as they are now; the returned function puts both back
 * (a test that restores an old state file restores the records that go with it, as a person would).
 */
export function snapshotRecords(journal: string): () => void {
  const anchor = anchorFileOf(journal);
  const read = (f: string) => (existsSync(f) ? readFileSync(f, 'utf8') : null);
  const saved = { journal: read(journal), anchor: read(anchor) };
  const put = (f: string, text: string | null) => (text === null ? rmSync(f, { force: true }) : writeFileSync(f, text));
  return () => {
    put(journal, saved.journal);
    put(anchor, saved.anchor);
  };
}
