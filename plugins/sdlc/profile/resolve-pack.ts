import { basename, dirname, isAbsolute, join, resolve } from 'pathe';
import { SluiceError, type Host } from '../../../core/index.ts';

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

export const builtinPackDir = (host: Host, name: string) => host.asset('plugins', 'sdlc', 'packs', name);

const isDir = async (host: Host, p: string) => (await host.stat(p))?.kind === 'dir';
const hasProfile = async (host: Host, dir: string) => (await host.stat(join(dir, 'profile.yaml'))) !== null;
const looksLikePath = (spec: string) => spec.startsWith('.') || isAbsolute(spec) || /\.ya?ml$/.test(spec) || (spec.includes('/') && !spec.startsWith('@'));

/**
 * Finds a pack from `--profile`: a built-in id, a folder (or its profile.yaml), an id of a pack listed
 * under `profiles:` in sluice.config, or an npm package installed in the project.
 */
export async function resolvePack(host: Host, spec: string, projectRoot: string, configProfiles: readonly string[]): Promise<PackLocation> {
  const builtin = BUILTIN_PACKS[spec];
  if (builtin) return { dir: builtinPackDir(host, builtin), source: 'builtin', spec };

  const asPath = resolve(projectRoot, spec);
  const asPathKind = (await host.stat(asPath))?.kind;
  if (asPathKind !== undefined && asPathKind !== 'dir' && looksLikePath(spec)) return { dir: dirname(asPath), source: 'folder', spec };
  if (asPathKind === 'dir' && (await hasProfile(host, asPath))) return { dir: asPath, source: 'folder', spec };
  if (looksLikePath(spec)) throw notFound(spec, `${asPath} is not a profile pack (no profile.yaml)`);

  for (const dir of await configPackDirs(host, projectRoot, configProfiles)) {
    if (basename(dir) === spec || (await readProfileId(host, dir)) === spec) return { dir, source: 'config', spec };
  }

  const pkg = await findPackage(host, spec, projectRoot);
  if (pkg) {
    if (!(await hasProfile(host, pkg))) throw notFound(spec, `package ${spec} (${pkg}) has no profile.yaml at its root`);
    return { dir: pkg, source: 'package', spec };
  }
  throw notFound(
    spec,
    `no built-in pack (${Object.keys(BUILTIN_PACKS).join(', ')}), folder, configured pack or installed package is called ${JSON.stringify(spec)}`,
  );
}

const notFound = (spec: string, message: string) => new SluiceError('PROFILE_NOT_FOUND', { field: '--profile', message, data: { spec } });

/** Pack folders named by `profiles:` in sluice.config: each entry is a pack, a folder of packs, or a package. */
async function configPackDirs(host: Host, projectRoot: string, entries: readonly string[]): Promise<string[]> {
  const dirs: string[] = [];
  for (const [i, entry] of entries.entries()) {
    const asPath = resolve(projectRoot, entry);
    const dir = (await isDir(host, asPath)) ? asPath : await findPackage(host, entry, projectRoot);
    if (!dir)
      throw new SluiceError('CONFIG_INVALID', {
        file: 'sluice.config.yaml',
        field: `profiles.${i}`,
        message: `profile pack location ${JSON.stringify(entry)} is neither a folder nor an installed package`,
      });
    if (await hasProfile(host, dir)) dirs.push(dir);
    else {
      const subdirs = (await host.listDir(dir)).filter((e) => e.kind === 'dir').map((e) => join(dir, e.name));
      for (const sub of subdirs.sort()) if (await hasProfile(host, sub)) dirs.push(sub);
    }
  }
  return dirs;
}

async function readProfileId(host: Host, dir: string): Promise<string | undefined> {
  return /^\s*profile_id:\s*["']?([a-z0-9-]+)["']?\s*(?:#.*)?$/m.exec(await host.readText(join(dir, 'profile.yaml'), { maxBytes: MAX_PROFILE_BYTES }))?.[1];
}

/** A package installed in the project: node_modules lookup up from the project, then the host's module resolution of `<pkg>/package.json`. */
async function findPackage(host: Host, name: string, projectRoot: string): Promise<string | undefined> {
  if (!/^(@[a-z0-9._~-]+\/)?[a-z0-9._~-]+$/i.test(name)) return undefined;
  for (let dir = projectRoot; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (await host.stat(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) break;
  }
  // The resolver loads only here: a built-in or folder pack (every gate run on a reference project) never needs it.
  try {
    return host.resolveModule ? dirname(await host.resolveModule(`${name}/package.json`, projectRoot)) : undefined;
  } catch {
    return undefined;
  }
}
