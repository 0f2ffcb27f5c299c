import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { loadCached, saveCodeCache } from '../host-node/code-cache.ts';
import type * as ShellGuard from './shell-guard.ts';

/**
 * The shell judge with its parser (about 200 kB), loaded only for a command the prefilter could not
 * clear. Chosen at run time: in a CommonJS bundle beside the build's dist/guard-shell.cjs (dist/guard.cjs,
 * dist/sluice-cli.cjs) it is that file run through V8's code cache dist/guard-shell.cache (made by the
 * build; when it is missing or was made by another Node, the first judgement is followed by writing a
 * fresh one). Elsewhere (from source, the ES module bundle) it is shell-guard.ts.
 */
export async function loadShellGuard(): Promise<typeof ShellGuard> {
  const file = typeof __dirname === 'string' ? join(__dirname, 'guard-shell.cjs') : undefined;
  if (file === undefined || !existsSync(file)) return import('./shell-guard.ts');
  const cacheFile = join(__dirname, 'guard-shell.cache');
  const loaded = loadCached<typeof ShellGuard>(file, cacheFile, require);
  if (!loaded.compiled) return loaded.exports;
  const judgeShell: typeof ShellGuard.judgeShell = (command, scope) => {
    try {
      return loaded.exports.judgeShell(command, scope);
    } finally {
      saveCodeCache(loaded, cacheFile);
    }
  };
  return { ...loaded.exports, judgeShell };
}
