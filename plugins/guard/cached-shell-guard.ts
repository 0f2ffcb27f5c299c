import { join } from 'node:path';
import { loadCached, saveCodeCache } from '../code-cache/index.ts';
import type * as ShellGuard from './shell-guard.ts';

/**
 * shell-guard-loader.ts as the guard's CommonJS build has it: dist/guard-shell.cjs run through V8's
 * code cache (dist/guard-shell.cache, made by the build). When the cache is missing or was made by
 * another Node, the first judgement is followed by writing a fresh one.
 */
export async function loadShellGuard(): Promise<typeof ShellGuard> {
  const file = join(__dirname, 'guard-shell.cjs');
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
