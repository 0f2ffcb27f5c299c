import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root, and its files as seeds: the reference formats sluice ships and the fuzz seeds kept for this suite. */
export const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
export const repoFile = (...parts: string[]) => readFileSync(join(repoRoot, ...parts), 'utf8');
export const seedFile = (...parts: string[]) => repoFile('test', 'fixtures', 'hardening', 'seeds', ...parts);
