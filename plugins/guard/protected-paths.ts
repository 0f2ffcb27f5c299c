import type { Decision } from './decision.ts';

/**
 * Which paths hold sluice's records. Judged by path segments, not by one project root, so a nested
 * project or a second checkout is covered too:
 * - `.sdlc/` (state, profile, registry, compliance, frozen copies, allowed_signers) except the
 *   agent's own work in `.sdlc/artifacts/` and the generated `.sdlc/reports/`;
 * - `.sluice/` (transcripts, runs, lifecycle runtime data);
 * - `.prizmkit/state/workflows/` and `.prizmkit/state/journal/` (lifecycle state and its journal);
 * - `sluice.config.*` (plugins, delegate commands, commit grants);
 * - sluice's user config folder (trust store, grant key), for reads too;
 * - sluice's cache folder: `gate`, `next` and the dashboards take parsed state, profile and registry
 *   from it, so a forged entry would change what they judge without touching `.sdlc/`;
 * - `.claude/settings.json` and `settings.local.json`, where the guard itself is installed (ask);
 * - `.git/hooks/`, whose scripts git runs itself (a commit-msg hook could add the lifecycle trailer),
 *   and `.git/config` (ask: it names the hooks folder, aliases and the commit template);
 * - a tune run's `iteration-state.json`, wherever its run folder is;
 * - sluice's installation (a `node_modules/sluice/` anywhere, the bin the hook runs): the guard itself.
 */
export interface GuardPlaces {
  /** `$XDG_CONFIG_HOME/sluice` or `~/.config/sluice`, absolute. */
  userConfigDir: string;
  /** `$SLUICE_CACHE_DIR/parsed`, else `$XDG_CACHE_HOME/sluice` or `~/.cache/sluice`, absolute. */
  userCacheDir: string;
  /**
   * sluice's other user folders, neither read nor written (the account home's config folder, where
   * the grant key is read whatever XDG_CONFIG_HOME says; the state folder with the record anchors' key).
   */
  privateDirs?: readonly string[];
  /** Every cache folder sluice may use (this environment's and the account home's): writes denied, reads open. */
  cacheDirs?: readonly string[];
  /** sluice's installation: its package folder, the bin the hook runs, a `sluice` on PATH. Never written. */
  installation?: readonly string[];
}
const SDLC_OPEN = new Set(['artifacts', 'reports']);
const CONFIG_FILE = /^sluice\.config\.[a-z]+$/i;

function segments(path: string): string[] {
  return path.split('/').filter(Boolean);
}

function under(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`);
}

/** The decision for writing (or, for the user config folder, touching at all) an absolute, normalized path. */
export function protectedPath(path: string, places: GuardPlaces): Decision | undefined {
  if (privateDirOf(path, places) !== undefined)
    return { verdict: 'deny', reason: `${path} is in sluice's user config folder (trust store, grant key): only a person edits it` };
  if ([places.userCacheDir, ...(places.cacheDirs ?? [])].some((dir) => under(path, dir)))
    return { verdict: 'deny', reason: `${path} is in sluice's cache, which gate and next read in place of the records: only sluice writes it` };
  if (places.installation?.some((dir) => under(path, dir)))
    return { verdict: 'deny', reason: `${path} is sluice's installation, which runs the guard itself: only a person installs sluice` };
  const s = segments(path);
  for (let i = 0; i < s.length; i++) {
    const name = s[i]!;
    if (name === '.sdlc' && !SDLC_OPEN.has(s[i + 1] ?? ''))
      return { verdict: 'deny', reason: `${path} is an SDLC record (.sdlc/ state, profile, approvals, frozen files): change it through sluice commands` };
    if (name === '.sluice') return { verdict: 'deny', reason: `${path} is sluice runtime data (.sluice/): only sluice writes it` };
    if (name === '.prizmkit' && s[i + 1] === 'state' && (s[i + 2] === 'workflows' || s[i + 2] === 'journal' || i + 2 === s.length)) {
      return { verdict: 'deny', reason: `${path} is lifecycle state or its journal: change it through sluice lifecycle commands` };
    }
    if (name === '.git' && s[i + 1] === 'hooks')
      return {
        verdict: 'deny',
        reason: `${path} is a git hook, which git runs on every commit (it could add the Lifecycle-Requirement trailer): only a person installs hooks`,
      };
    if (name === '.git' && s[i + 1] === 'config' && i === s.length - 2)
      return { verdict: 'ask', reason: `${path} is git's config (hooks folder, aliases, commit template), which can change what a commit carries` };
    if (name === 'node_modules' && (s[i + 1] === 'sluice' || (s[i + 1] === '.bin' && /^sluice/.test(s[i + 2] ?? ''))))
      return { verdict: 'deny', reason: `${path} is sluice's installation, which runs the guard itself: only a person installs sluice` };
    if (name === 'iteration-state.json' && i === s.length - 1)
      return { verdict: 'deny', reason: `${path} is a tune run's state: only \`sluice tune\` writes it` };
    if (name === '.claude' && i === s.length - 2 && /^settings(\.local)?\.json$/.test(s[i + 1]!))
      return { verdict: 'ask', reason: `${path} holds the Claude Code hooks that guard sluice's records` };
  }
  if (CONFIG_FILE.test(s.at(-1) ?? ''))
    return { verdict: 'deny', reason: `${path} is sluice's config (plugins, delegate commands, commit grants): only a person edits it` };
  return undefined;
}

/** The user folder of sluice's that holds `path`, if any: the config folder or one of the other private ones. */
function privateDirOf(path: string, places: GuardPlaces): string | undefined {
  return [places.userConfigDir, ...(places.privateDirs ?? [])].find((dir) => under(path, dir));
}

/** Reading is fine everywhere except sluice's private user folders (its grant key would let an agent mint grants). */
export function protectedRead(path: string, places: GuardPlaces): Decision | undefined {
  return privateDirOf(path, places) !== undefined
    ? { verdict: 'deny', reason: `${path} is in sluice's user config folder (trust store, grant key): agents do not read it` }
    : undefined;
}

/** Every absolute folder of sluice's outside any project: its user folders and its installation. */
export function outsideFolders(places: GuardPlaces): string[] {
  return [places.userConfigDir, places.userCacheDir, ...(places.privateDirs ?? []), ...(places.cacheDirs ?? []), ...(places.installation ?? [])];
}

/** Whether removing, moving or copying over `dir` recursively could reach a protected path. */
export function containsProtected(dir: string, places: GuardPlaces, exists: (path: string) => boolean, projectDir: string): boolean {
  if (under(projectDir, dir) || outsideFolders(places).some((f) => under(f, dir))) return true;
  const base = dir.replace(/\/+$/, '');
  if (/(^|\/)\.git$/.test(base)) return true;
  // node_modules/ that holds sluice's package: removing it removes the guard (a hook that fails is ignored).
  if (/(^|\/)node_modules$/.test(base) && exists(`${base}/sluice`)) return true;
  return ['.sdlc', '.sluice', '.prizmkit/state', '.git/hooks', '.git/config', 'node_modules/sluice'].some((name) => exists(`${base}/${name}`));
}
