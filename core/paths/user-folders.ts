/**
 * Where sluice keeps what belongs to the person, not the project: one answer for every reader (trust
 * store, grant and signing keys, record anchors, the queue key, the parse cache) and for everything
 * that must keep an agent out of them (the guard, the OS sandbox, Claude Code's sandbox settings,
 * `sluice doctor`), so a folder sluice reads can never be one the protections miss.
 *
 * - `config`: `$XDG_CONFIG_HOME/sluice` (absolute values only, as the XDG spec says), else
 *   `$HOME/.config/sluice`: config.yaml, trust.json, keys a person made.
 * - `state`: `$XDG_STATE_HOME/sluice`, else `$HOME/.local/state/sluice`: record anchors and their key.
 * - `cache`: see cache-folder.ts.
 * - `account`: `<account home>/.config/sluice`, the home from the system's account records, which
 *   whoever starts sluice cannot point elsewhere: where authority is read (commit-grant key, the
 *   user-config grant). Usually the same folder as `config`.
 *
 * `protectedUserFolders` is every one of them, once: the set a guard or a sandbox must cover, whichever
 * variable a later process sets. Paths are joined with `/` and not normalized (the guard's bundle
 * carries no path library); every value is absolute when the account home is.
 */
export interface UserFolders {
  config: string;
  state: string;
  /** The folder sluice owns in the cache (see cacheFolder's `owned`). */
  cache: string;
  account: string;
}

import { cacheFolder } from './cache-folder.ts';

type Env = (name: string) => string | undefined;

const absolute = (value: string | undefined): string | undefined => (value && value.startsWith('/') ? value.replace(/\/+$/, '') || '/' : undefined);

/**
 * `accountHome` is called only when an answer needs it (a repeated `gate` reads no account records
 * when HOME is set and it wants only the cache).
 */
export function userFolders(env: Env, accountHome: () => string): UserFolders {
  const home = () => absolute(env('HOME')) ?? accountHome();
  return {
    get config() {
      return `${absolute(env('XDG_CONFIG_HOME')) ?? `${home()}/.config`}/sluice`;
    },
    get state() {
      return `${absolute(env('XDG_STATE_HOME')) ?? `${home()}/.local/state`}/sluice`;
    },
    get cache() {
      return cacheFolder(env, home).owned;
    },
    get account() {
      return `${accountHome()}/.config/sluice`;
    },
  };
}

/**
 * Every folder of sluice's that an agent must neither read nor write, deduplicated: the folders this
 * environment names, and the account home's own, which sluice reads authority from whatever the
 * environment says.
 */
export function protectedUserFolders(env: Env, accountHome: () => string): string[] {
  const f = userFolders(env, accountHome);
  const fallback = userFolders(() => undefined, accountHome);
  return [...new Set([f.config, f.state, f.cache, f.account, fallback.config, fallback.state, fallback.cache])];
}
