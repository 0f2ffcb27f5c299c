import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let root: string | undefined;

/**
 * The folder sluice is installed in. Bundled data (phase registry, profile packs, skills, demo
 * scripts) is read from there, which works the same from source (tsx) and from dist/ chunks.
 */
export function sluiceRoot(): string {
  if (root) return root;
  for (let dir = dirname(fileURLToPath(import.meta.url)); ; dir = dirname(dir)) {
    const pkg = join(dir, 'package.json');
    if (existsSync(pkg) && (JSON.parse(readFileSync(pkg, 'utf8')) as { name?: string }).name === 'sluice') return (root = dir);
    if (dirname(dir) === dir) throw new Error('cannot find the sluice package folder');
  }
}

/** Absolute path of a file shipped with sluice, e.g. `sluiceAsset('skills', 'lifecycle', 'plan.md')`. */
export function sluiceAsset(...parts: string[]): string {
  return join(sluiceRoot(), ...parts);
}
