import { cp, mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

/** The views' fixture projects (test/fixtures/sdlc-views/NAME), read in place by tests that change nothing. */
export const viewsFixture = (name: 'spec-repo' | 'report-project') => resolve(import.meta.dirname, '../fixtures/sdlc-views', name);

/** A temporary copy of a views fixture project, for a test that changes it; the folder's name starts with `prefix`. */
export async function fixtureCopy(name: 'spec-repo' | 'report-project', prefix: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), prefix));
  await cp(viewsFixture(name), dir, { recursive: true });
  return dir;
}
