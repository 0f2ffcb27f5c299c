import type { ShellWord } from './shell-words.ts';

/**
 * What a command's variables hold, as far as the guard can know before it runs: values assigned a
 * literal earlier in the same command (`D=.sdlc; rm -rf $D`), a `for` loop's words, a function's
 * arguments where it is called, and the environment the agent's shell inherits (`$HOME`). A variable
 * set to something computed, or not known at all, leaves its word computed, which the rules treat
 * as possibly naming anything.
 */
export type Bindings = ReadonlyMap<string, readonly string[] | null>;

export interface VariableScope {
  /** The environment of the agent's shell (Claude Code's, which the hook inherits). */
  vars?: Readonly<Record<string, string | undefined>>;
  /** Values set in the command so far; null: set to something computed. */
  bound?: Bindings;
}

/** Parameters that hold numbers, never a path: `$?`, `$#`, `$$`, `$!`. */
const NUMERIC = new Set(['?', '#', '$', '!']);
const LIST = new Set(['@', '*']);

function valuesOf(name: string, scope: VariableScope): readonly string[] | undefined {
  const bound = scope.bound?.get(name);
  if (bound !== undefined) return bound ?? undefined;
  if (NUMERIC.has(name)) return ['0'];
  if (LIST.has(name) || /^\d+$/.test(name)) return undefined;
  const value = scope.vars?.[name];
  return value === undefined ? undefined : [value];
}

const GLOB = /[*?[{]/;
const literal = (text: string): ShellWord => ({ text, dynamic: GLOB.test(text), substitutions: [] });

/** The word with its known variables put in (one word, or `"$@"`'s many); the word itself when any is unknown. */
export function expandWord(word: ShellWord, scope: VariableScope): ShellWord[] {
  const params = word.params;
  if (!params || word.computed) return [word];
  const bare = word.text.replace(/"/g, '');
  if (params.length === 1 && LIST.has(params[0]!.name) && /^\$(@|\*|\{[@*]\})$/.test(bare)) {
    const list = valuesOf(params[0]!.name, scope);
    return list ? list.map(literal) : [word];
  }
  let text = '';
  let at = 0;
  for (const p of [...params].sort((a, b) => a.start - b.start)) {
    const values = valuesOf(p.name, scope);
    if (!values || values.length !== 1) return [word];
    text += word.text.slice(at, p.start).replace(/["']/g, '') + values[0];
    at = p.end + 1;
  }
  return [literal(text + word.text.slice(at).replace(/["']/g, ''))];
}

export function expandWords(words: ShellWord[], scope: VariableScope): ShellWord[] {
  return words.flatMap((w) => expandWord(w, scope));
}

/** The bindings with `name` set: to the words' texts when all are known, else to "computed". */
export function bind(scope: VariableScope, name: string, values: ShellWord[] | null): Bindings {
  const next = new Map(scope.bound ?? []);
  next.set(name, values && values.every((w) => !w.params && !w.computed && w.substitutions.length === 0) ? values.map((w) => w.text) : null);
  return next;
}

/** `NAME=VALUE`'s value as a word of its own. */
export function assignedValue(w: ShellWord): ShellWord {
  const eq = w.text.indexOf('=');
  return { ...w, text: w.text.slice(eq + 1), params: w.params?.map((p) => ({ ...p, start: p.start - eq - 1, end: p.end - eq - 1 })) };
}
