import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { HostNotFoundError } from '../../core/index.ts';

/** Imports a plugin given as a path (relative to `fromDir`) or a package name installed in the project. */
export async function importModule(specifier: string, fromDir: string): Promise<Record<string, unknown>> {
  const isPath = specifier.startsWith('.') || isAbsolute(specifier);
  let url: string;
  if (isPath) {
    const file = resolve(fromDir, specifier);
    if (!existsSync(file)) throw new HostNotFoundError(file);
    url = pathToFileURL(file).href;
  } else {
    // Node's own ESM resolution, but from the project folder rather than from sluice's install.
    const { resolve: resolveSpecifier } = await import('import-meta-resolve');
    try {
      url = resolveSpecifier(specifier, pathToFileURL(resolve(fromDir, 'package.json')).href);
    } catch {
      throw new HostNotFoundError(specifier);
    }
  }
  return (await import(url)) as Record<string, unknown>;
}
