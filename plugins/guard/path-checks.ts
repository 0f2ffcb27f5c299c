import { existsSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { allow, stricter, type Decision } from './decision.ts';
import { globReachesPrivate } from './protected-mentions.ts';
import { containsProtected, protectedPath, protectedRead, type GuardPlaces } from './protected-paths.ts';
import { absolutePath, pathsOf } from './resolve-path.ts';
import type { ShellWord } from './shell-words.ts';
import type { VariableScope } from './shell-variables.ts';

/** Where a command runs, what it must not touch, and what its variables hold. */
export interface ShellScope extends VariableScope {
  /** undefined after a `cd` to a computed folder: relative paths are then unknown. */
  cwd: string | undefined;
  projectDir: string;
  places: GuardPlaces;
}

const ask = (reason: string): Decision => ({ verdict: 'ask', reason });

/**
 * The working folder after `cd DIR` (or `git -C DIR`): undefined when computed at run time, or
 * longer than any path the system opens (a chain of `cd a; cd a; …` would otherwise cost its square).
 */
export function folderAfter(dir: ShellWord, cwd: string | undefined): string | undefined {
  const next = dir.dynamic ? undefined : dir.text.startsWith('/') ? absolutePath(dir.text, '/') : cwd === undefined ? undefined : absolutePath(dir.text, cwd);
  return next !== undefined && next.length <= 4096 ? next : undefined;
}

/** Resolves a literal word, or says why it cannot be known before the command runs. */
function resolveWord(word: ShellWord, scope: ShellScope, what: string): string[] | Decision {
  if (word.dynamic) return ask(`${what} ${JSON.stringify(word.text)} is computed when the command runs; sluice cannot tell whether it is one of its records`);
  if (scope.cwd === undefined && !word.text.startsWith('/') && !word.text.startsWith('~'))
    return ask(`${what} ${JSON.stringify(word.text)} is relative to a folder computed at run time`);
  return pathsOf(word.text, scope.cwd ?? scope.projectDir);
}

/** A path the command writes, creates, removes or changes. */
export function checkWrite(word: ShellWord, scope: ShellScope, what = 'the path'): Decision {
  const paths = resolveWord(word, scope, what);
  if (!Array.isArray(paths)) return paths;
  return paths.reduce<Decision>((d, p) => stricter(d, protectedPath(p, scope.places) ?? allow), allow);
}

/** A folder the command works on recursively (rm -r, chmod -R, find -delete): its protected contents count too. */
export function checkRecursive(word: ShellWord, scope: ShellScope, what = 'the folder'): Decision {
  const direct = checkWrite(word, scope, what);
  if (direct.verdict !== 'allow' || word.dynamic) return direct;
  const abs = absolutePath(word.text, scope.cwd ?? scope.projectDir);
  return containsProtected(abs, scope.places, existsSync, scope.projectDir)
    ? ask(`${abs} contains sluice's records (.sdlc/, .sluice/, lifecycle state); this would change them too`)
    : allow;
}

/** A destination that may be a folder: `cp a b/` writes b/a. */
export function checkDestination(dest: ShellWord, sources: ShellWord[], scope: ShellScope): Decision {
  let d = checkWrite(dest, scope, 'the destination');
  if (d.verdict !== 'allow' || dest.dynamic || scope.cwd === undefined) return d;
  const abs = absolutePath(dest.text, scope.cwd);
  if (!isDir(abs)) return d;
  for (const s of sources) if (!s.dynamic) d = stricter(d, checkWrite({ ...s, text: join(abs, basename(s.text)) }, scope, 'the destination'));
  return d;
}

/**
 * Reading is checked only for sluice's private user folders (its grant key): a path there, a glob that
 * can match one (`cat ~/.config/sluice/*.key`), or a computed word that names one of sluice's folders.
 */
export function checkRead(word: ShellWord, scope: ShellScope): Decision {
  if (word.computed || word.substitutions.length > 0 || word.params)
    return /\.config\/|\.local\/state|\/sluice\b|\.key\b/i.test(word.text)
      ? ask(`${JSON.stringify(word.text)} is computed when the command runs and may name sluice's user config folder (its keys)`)
      : allow;
  if (scope.cwd === undefined && !word.text.startsWith('/') && !word.text.startsWith('~')) return allow;
  if (word.dynamic) {
    const p = globReachesPrivate(word.text, scope.cwd ?? scope.projectDir, scope);
    return p
      ? { verdict: 'deny', reason: `${word.text} can match ${p}, in sluice's user config folder (trust store, grant key): agents do not read it` }
      : allow;
  }
  return pathsOf(word.text, scope.cwd ?? scope.projectDir).reduce<Decision>((d, p) => stricter(d, protectedRead(p, scope.places) ?? allow), allow);
}

function isDir(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
