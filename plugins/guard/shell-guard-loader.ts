import type * as ShellGuard from './shell-guard.ts';

/**
 * The shell judge with its parser (about 200 kB), loaded only for a command the prefilter could not
 * clear. The guard's own build (scripts/build.mjs) puts cached-shell-guard.ts in this file's place.
 */
export const loadShellGuard = (): Promise<typeof ShellGuard> => import('./shell-guard.ts');
