/**
 * Where sluice's disk cache lives, for the cache itself (plugins/sdlc) and for the guard that
 * protects it, so the two cannot drift apart. `owned` is the folder sluice owns there:
 * `$SLUICE_CACHE_DIR/parsed` (a folder the user named may hold other things), else
 * `$XDG_CACHE_HOME/sluice` or `<home>/.cache/sluice`; `entries` is where the entries go. `home`
 * answers when HOME is unset. The paths are joined with `/` and not normalized: each caller
 * normalizes with its own path library (the guard's bundle carries no pathe).
 */
export function cacheFolder(env: (name: string) => string | undefined, home: () => string): { owned: string; entries: string } {
  const explicit = env('SLUICE_CACHE_DIR');
  if (explicit) return { owned: `${explicit}/parsed`, entries: `${explicit}/parsed` };
  const owned = `${env('XDG_CACHE_HOME') || `${env('HOME') || home()}/.cache`}/sluice`;
  return { owned, entries: `${owned}/parsed` };
}
