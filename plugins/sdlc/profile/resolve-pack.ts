import { existsSync, readdirSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { SluiceError } from '../../../core/index.ts';
import { readBoundedSync, sluiceAsset } from '../../host-node/index.ts';
import '../sdlc-errors.ts';

/** profile.yaml is a page of YAML; a FIFO or a huge file in its place is refused, not read. */
const MAX_PROFILE_BYTES = 1024 * 1024;

/** Where a profile pack was found: a folder holding profile.yaml, compliance/*.yaml and an optional phase-registry.yaml. */
export interface PackLocation {
  dir: string;
  source: 'builtin' | 'folder' | 'package' | 'config' | 'project';
  /** What the user asked for. */
  spec: string;
  /** Where compliance files missing from `dir` are looked up next (the pack a kept profile's id names). */
  fallbackDir?: string;
}

/** Built-in pack ids. `microsoft-enterprise` is the reference id of the enterprise pack. */
export const BUILTIN_PACKS: Record<string, string> = { starter: 'starter', enterprise: 'enterprise', 'microsoft-enterprise': 'enterprise' };

export const builtinPackDir = (name: string) => sluiceAsset('plugins', 'sdlc', 'packs', name);

const isDir = (p: string) => existsSync(p) && statSync(p).isDirectory();
const hasProfile = (dir: string) => existsSync(join(dir, 'profile.yaml'));
const looksLikePath = (spec: string) => spec.startsWith('.') || isAbsolute(spec) || /\.ya?ml$/.test(spec) || (spec.includes('/') && !spec.startsWith('@'));

/**
 * Finds a pack from `--profile`: a built-in id, a folder (or its profile.yaml), an id of a pack listed
 * under `profiles:` in sluice.config, or an npm package installed in the project.
 */
export async function resolvePack(spec: string, projectRoot: string, configProfiles: readonly string[]): Promise<PackLocation> {
  const builtin = BUILTIN_PACKS[spec];
  if (builtin) return { dir: builtinPackDir(builtin), source: 'builtin', spec };

  const asPath = resolve(projectRoot, spec);
  if (existsSync(asPath) && !isDir(asPath) && looksLikePath(spec)) return { dir: dirname(asPath), source: 'folder', spec };
  if (isDir(asPath) && hasProfile(asPath)) return { dir: asPath, source: 'folder', spec };
  if (looksLikePath(spec)) throw notFound(spec, `${asPath} is not a profile pack (no profile.yaml)`);

  for (const dir of await configPackDirs(projectRoot, configProfiles)) {
    if (basename(dir) === spec || readProfileId(dir) === spec) return { dir, source: 'config', spec };
  }

  const pkg = await findPackage(spec, projectRoot);
  if (pkg) {
    if (!hasProfile(pkg)) throw notFound(spec, `package ${spec} (${pkg}) has no profile.yaml at its root`);
    return { dir: pkg, source: 'package', spec };
  }
  throw notFound(
    spec,
    `no built-in pack (${Object.keys(BUILTIN_PACKS).join(', ')}), folder, configured pack or installed package is called ${JSON.stringify(spec)}`,
  );
}

const notFound = (spec: string, message: string) => new SluiceError('PROFILE_NOT_FOUND', { field: '--profile', message, data: { spec } });

/** Pack folders named by `profiles:` in sluice.config: each entry is a pack, a folder of packs, or a package. */
async function configPackDirs(projectRoot: string, entries: readonly string[]): Promise<string[]> {
  const dirs: string[] = [];
  for (const [i, entry] of entries.entries()) {
    const asPath = resolve(projectRoot, entry);
    const dir = isDir(asPath) ? asPath : await findPackage(entry, projectRoot);
    if (!dir)
      throw new SluiceError('CONFIG_INVALID', {
        file: 'sluice.config.yaml',
        field: `profiles.${i}`,
        message: `profile pack location ${JSON.stringify(entry)} is neither a folder nor an installed package`,
      });
    if (hasProfile(dir)) dirs.push(dir);
    else {
      const subdirs = readdirSync(dir, { withFileTypes: true })
        .filter((e) => e.isDirectory())
        .map((e) => join(dir, e.name));
      dirs.push(...subdirs.filter(hasProfile).sort());
    }
  }
  return dirs;
}

function readProfileId(dir: string): string | undefined {
  return /^\s*profile_id:\s*["']?([a-z0-9-]+)["']?\s*(?:#.*)?$/m.exec(readBoundedSync(join(dir, 'profile.yaml'), MAX_PROFILE_BYTES).toString('utf8'))?.[1];
}

/** A package installed in the project: node_modules lookup up from the project, then Node's resolution of `<pkg>/package.json`. */
async function findPackage(name: string, projectRoot: string): Promise<string | undefined> {
  if (!/^(@[a-z0-9._~-]+\/)?[a-z0-9._~-]+$/i.test(name)) return undefined;
  for (let dir = projectRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  // Node's resolver loads only here: a built-in or folder pack (every gate run on a reference project) never needs it.
  const { resolve: resolveSpecifier } = await import('import-meta-resolve');
  try {
    return dirname(fileURLToPath(resolveSpecifier(`${name}/package.json`, pathToFileURL(join(projectRoot, 'package.json')).href)));
  } catch {
    return undefined;
  }
}
