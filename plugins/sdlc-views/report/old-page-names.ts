import { join } from 'pathe';
import type { Host } from '../../../core/index.ts';

/** The name earlier sluice gave a phase page (`02-design.html`); pages are now named as the reference names them. */
const oldPageName = (slug: string): string => `${slug}.html`;

const GENERATOR = '<meta name="generator" content="sluice">';

/**
 * Migrates a report folder: once a phase's page is written under its new name, the page earlier
 * sluice wrote under the old name beside it goes, so the folder holds one page per phase. Only a
 * regular file carrying sluice's generator mark is removed; anything else by that name is left.
 */
export async function removeOldPhasePage(host: Host, dir: string, slug: string): Promise<string | undefined> {
  const path = join(dir, oldPageName(slug));
  const info = await host.stat(path);
  if (info?.kind !== 'file') return undefined;
  const head = new TextDecoder().decode((await host.readHead(path, 4096)).data);
  if (!head.includes(GENERATOR)) return undefined;
  await host.remove(path);
  return path;
}
