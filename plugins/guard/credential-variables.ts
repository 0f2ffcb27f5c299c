import { readFileSync } from 'node:fs';
import { SLUICE_CREDENTIALS } from '../../core/secrets/sluice-credentials.ts';
import { allow, type Decision } from './decision.ts';
import type { ShellScope } from './path-checks.ts';
import { absolutePath } from './resolve-path.ts';
import type { ShellWord } from './shell-words.ts';

/**
 * sluice's credential variables (core/secrets/sluice-credentials.ts: the commit grant, the signing
 * key, the trusted hash) hand sluice a person's say-so: an agent that sets one vouches for itself.
 * Every way of setting one is denied: an assignment anywhere in the text (a prefix, `export`,
 * `env X=`, `declare`, `${X:=…}`, a here-document written to a file and sourced), the builtins that
 * set a named variable (`read X`, `printf -v X`, `declare -n`, `mapfile X`, `export X`), and sourcing
 * a file that names one, or one the guard cannot read, after `set -a` exports everything it sets.
 */
const NAMES = SLUICE_CREDENTIALS.join('|');
const ASSIGNED = new RegExp(`(${NAMES})(\\+?=|:=|\\[)`);
const NAMED = new RegExp(`(^|[^A-Za-z0-9_])(${NAMES})($|[^A-Za-z0-9_])`);
/** Builtins that set the variable a word names (`read NAME`, `printf -v NAME`, `export NAME`). */
const SETTERS = new Set(['read', 'printf', 'declare', 'typeset', 'local', 'export', 'readonly', 'mapfile', 'readarray', 'getopts', 'let', 'unset', 'set']);
const SOURCE = new Set(['.', 'source']);

const deny = (name: string, how: string): Decision => ({
  verdict: 'deny',
  reason: `${how} sets ${name}, which carries a person's trust, grant or signing key: only the person sets it`,
});

/** The whole command's text: an assignment anywhere in it (quoted, in a here-document) is one the shell may make. */
export function credentialInText(text: string): Decision {
  const m = ASSIGNED.exec(text);
  return m ? deny(m[1]!, 'the command') : allow;
}

/** One simple command: its program and words after unwrapping; `exportsAll` after a `set -a` in the same command. */
export function credentialInCommand(name: string, argv: ShellWord[], scope: ShellScope, exportsAll: boolean): Decision {
  if (SETTERS.has(name)) {
    const named = argv.slice(1).find((w) => NAMED.test(w.text));
    if (named) return deny(NAMED.exec(named.text)![2]!, `\`${name} ${named.text}\``);
    if (name !== 'set' && name !== 'unset' && argv.slice(1).some((w) => w.dynamic))
      return { verdict: 'ask', reason: `${name} sets a variable whose name is computed; it may be one of sluice's credentials` };
  }
  if (SOURCE.has(name)) {
    const file = argv[1];
    const text = file && !file.dynamic ? readSmall(absolutePath(file.text, scope.cwd ?? scope.projectDir)) : undefined;
    if (text !== undefined && (ASSIGNED.test(text) || NAMED.test(text)))
      return deny(NAMED.exec(text)?.[2] ?? ASSIGNED.exec(text)![1]!, `the file ${file!.text} that \`${name}\` reads`);
    if (text === undefined && exportsAll)
      return deny(SLUICE_CREDENTIALS.join(', '), `\`set -a\` then \`${name}\` of a file sluice's guard cannot read (it may)`);
  }
  return allow;
}

/** `set -a`, `set -o allexport`: every variable set after it is exported to the programs run. */
export function exportsAll(name: string, argv: ShellWord[]): boolean {
  return name === 'set' && argv.some((w, i) => /^-[a-zA-Z]*a/.test(w.text) || (w.text === '-o' && argv[i + 1]?.text === 'allexport'));
}

function readSmall(path: string): string | undefined {
  try {
    const text = readFileSync(path, 'utf8');
    return text.length <= 1 << 20 ? text : undefined;
  } catch {
    return undefined;
  }
}
