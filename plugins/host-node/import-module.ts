import { existsSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { HostNotFoundError } from '../../core/index.ts';

/** The file URL a plugin specifier names: a path (relative to `fromDir`) or a package installed in the project. */
async function resolveModuleUrl(specifier: string, fromDir: string): Promise<string> {
  if (specifier.startsWith('.') || isAbsolute(specifier)) {
    const file = resolve(fromDir, specifier);
    if (!existsSync(file)) throw new HostNotFoundError(file);
    return pathToFileURL(file).href;
  }
  // Node's own ESM resolution, but from the project folder rather than from sluice's install.
  const { resolve: resolveSpecifier } = await import('import-meta-resolve');
  try {
    return resolveSpecifier(specifier, pathToFileURL(resolve(fromDir, 'package.json')).href);
  } catch {
    throw new HostNotFoundError(specifier);
  }
}

/** The file a plugin specifier resolves to, so its bytes can be hashed before it is trusted. */
export async function resolveModule(specifier: string, fromDir: string): Promise<string> {
  const url = await resolveModuleUrl(specifier, fromDir);
  return url.startsWith('file:') ? fileURLToPath(url) : url;
}

/** TypeScript sources Node 20 cannot import by itself. */
const TYPESCRIPT_FILE = /\.(?:[cm]?ts|tsx)$/i;

/** Imports a plugin given as a path (relative to `fromDir`) or a package name installed in the project. */
export async function importModule(specifier: string, fromDir: string): Promise<Record<string, unknown>> {
  const url = await resolveModuleUrl(specifier, fromDir);
  if (TYPESCRIPT_FILE.test(url)) return importTypeScript(url);
  return (await import(url)) as Record<string, unknown>;
}

/**
 * A `.ts` plugin goes through tsx (an optional peer dependency), scoped to this one import so the rest of
 * the process keeps Node's own loader. Without tsx the error says what to do instead.
 */
async function importTypeScript(url: string): Promise<Record<string, unknown>> {
  let tsImport: (specifier: string, parent: string) => Promise<unknown>;
  try {
    ({ tsImport } = (await import('tsx/esm/api')) as { tsImport: typeof tsImport });
  } catch {
    throw new Error(`${fileURLToPath(url)} is TypeScript and tsx is not installed next to sluice: run \`npm install tsx\`, or compile the plugin to .js/.mjs`);
  }
  return (await tsImport(url, import.meta.url)) as Record<string, unknown>;
}
