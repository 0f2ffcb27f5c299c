import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ShellScope } from './path-checks.ts';
import { containsProtected, outsideFolders, protectedPath, protectedRead } from './protected-paths.ts';
import { absolutePath, expandTilde, forgetPaths, pathsOf } from './resolve-path.ts';
import type { ShellWord } from './shell-words.ts';

/**
 * Whether a word may name one of sluice's protected paths: literally, as a folder above them (`.`,
 * the project, `~`), through a glob that can match one (`~/.config/sluice/*.key`, `.s*`), or by
 * being computed when the command runs (a `$(...)`, a variable the guard cannot know). Returns how
 * it names one, for the reason shown, or undefined.
 */
export function mentionOf(word: ShellWord, scope: ShellScope): string | undefined {
  if (word.computed || word.substitutions.length > 0 || word.params) return `${JSON.stringify(word.text)} (computed when the command runs)`;
  const text = optionValue(word.text);
  if (text === undefined || text === '') return undefined;
  if (scope.cwd === undefined && !/^[/~]/.test(text)) return `${JSON.stringify(text)} (relative to a folder computed at run time)`;
  const cwd = scope.cwd ?? scope.projectDir;
  if (!word.dynamic) return literalMention(text, cwd, scope);
  const p = globMatch(text, cwd, scope, (q) => isProtected(q, scope) || containsProtected(q, scope.places, existsSync, scope.projectDir));
  return p && `${text} (a pattern that can match ${p})`;
}

const isProtected = (p: string, scope: ShellScope) => protectedPath(p, scope.places) !== undefined || protectedRead(p, scope.places) !== undefined;

/** The private folder (or a path in it) a glob can match, for reads: `~/.config/sluice/*.key`, `~/.config/slu*`. */
export function globReachesPrivate(text: string, cwd: string, scope: ShellScope): string | undefined {
  const privates = [scope.places.userConfigDir, ...(scope.places.privateDirs ?? [])];
  return globMatch(text, cwd, scope, (q) => protectedRead(q, scope.places) !== undefined || privates.some((d) => d.startsWith(`${q}/`)));
}

/** The path part of an option word (`--output=FILE`, `-C.sdlc`); undefined for a plain option. */
function optionValue(text: string): string | undefined {
  if (!text.startsWith('-') || text === '-') return text;
  const eq = text.indexOf('=');
  if (eq > 0) return text.slice(eq + 1);
  return /^-[a-zA-Z][./~]/.test(text) ? text.slice(2) : undefined;
}

/**
 * One judgement's answers, by folder and word: a long command repeats its words (`out.txt`, `-la`),
 * and each answer costs a few file-system calls. judgeShell forgets them before each command.
 */
const answers = new Map<string, string | undefined>();
export const forgetMentions = (): void => {
  answers.clear();
  forgetPaths();
};

function literalMention(text: string, cwd: string, scope: ShellScope): string | undefined {
  if (text.length > 4096) return undefined;
  const key = `${cwd}\0${text}`;
  if (answers.has(key)) return answers.get(key);
  const answer = literalMentionNow(text, cwd, scope);
  answers.set(key, answer);
  return answer;
}

function literalMentionNow(text: string, cwd: string, scope: ShellScope): string | undefined {
  for (const p of pathsOf(text, cwd)) {
    if (protectedPath(p, scope.places) || protectedRead(p, scope.places)) return p;
    if (containsProtected(p, scope.places, existsSync, scope.projectDir)) return `${p} (a folder that holds sluice's records)`;
  }
  return undefined;
}

/** Names a protected path may have in a folder, besides the folders of sluice's that lie under it. */
const PROTECTED_NAMES = ['.sdlc', '.sluice', '.prizmkit', '.git', '.claude', 'node_modules', 'iteration-state.json'];
const CONFIG_NAMES = ['yaml', 'yml', 'json', 'js', 'mjs', 'cjs', 'ts'].map((ext) => `sluice.config.${ext}`);

/** The first path a glob can reach that `hit` says is protected: its fixed folder, or a name in it the pattern matches. */
function globMatch(text: string, cwd: string, scope: ShellScope, hit: (p: string) => boolean): string | undefined {
  const pattern = expandTilde(text);
  const first = pattern.search(/[*?[{]/);
  const slash = pattern.lastIndexOf('/', first);
  const dir = absolutePath(slash < 0 ? '.' : pattern.slice(0, slash) || '/', cwd);
  const rest = pattern.slice(slash + 1).split('/');
  if (hit(join(dir, 'x'))) return dir;
  const below = [scope.projectDir, ...outsideFolders(scope.places)]
    .filter((f) => f.startsWith(`${dir === '/' ? '' : dir}/`))
    .map((f) => f.slice(dir.length).replace(/^\//, '').split('/')[0]!);
  const segment = globRegExp(rest[0]!);
  for (const name of new Set([...PROTECTED_NAMES, ...CONFIG_NAMES, ...below])) {
    if (!segment.test(name)) continue;
    const p = join(dir, name);
    if (!existsSync(p) && !below.includes(name)) continue;
    if (hit(p)) return p;
  }
  return undefined;
}

/** One path segment's glob as the shell matches it: `*`, `?`, `[...]`, `{a,b}`; a leading dot only when written. */
function globRegExp(segment: string): RegExp {
  let out = '';
  for (let i = 0; i < segment.length; i++) {
    const c = segment[i]!;
    if (c === '*') out += '[^/]*';
    else if (c === '?') out += '[^/]';
    else if (c === '[') {
      const end = segment.indexOf(']', i + 2);
      if (end < 0) out += '\\[';
      else {
        out += `[${segment
          .slice(i + 1, end)
          .replace(/^!/, '^')
          .replace(/\\/g, '\\\\')}]`;
        i = end;
      }
    } else if (c === '{') out += '(';
    else if (c === '}') out += ')';
    else if (c === ',') out += '|';
    else out += c.replace(/[.+^$()|\\]/g, '\\$&');
  }
  try {
    return new RegExp(`^${segment.startsWith('.') ? '' : '(?!\\.)'}(?:${out})$`);
  } catch {
    return /^/; // a pattern the guard cannot read may match anything
  }
}
