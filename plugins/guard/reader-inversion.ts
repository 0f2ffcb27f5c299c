import { existsSync } from 'node:fs';
import type { ShellNode } from '@ericcornelissen/bash-parser';
import { allow, type Decision } from './decision.ts';
import { gitSubcommandAt } from './git-rules.ts';
import type { ShellScope } from './path-checks.ts';
import { mentionOf } from './protected-mentions.ts';
import { containsProtected, protectedPath } from './protected-paths.ts';
import { readerUse } from './reader-programs.ts';
import type { ShellWord } from './shell-words.ts';
import type { Unwrapped } from './unwrap-command.ts';

/**
 * The guard allows only what it understands: a command that names one of sluice's protected paths
 * (see protected-mentions.ts) is allowed only when every program in it is a known reader used as a
 * reader (reader-programs.ts); otherwise it is asked about, whatever the rules for each program say.
 * A walk of one command notes the first such name and the first program that is not a reader here,
 * with the aliases and functions the command defines (a call runs the function's body again, with
 * its arguments).
 */
export interface Seen {
  mention?: string;
  writer?: string;
  /** After `set -a`: every variable set is exported (credential-variables.ts). */
  exportsAll: boolean;
  aliases: Map<string, ShellWord[]>;
  functions: Map<string, ShellNode>;
  /** Function calls walked so far: bounded, as recursion or fan-out would be. */
  calls: number;
}

export const newSeen = (): Seen => ({ exportsAll: false, aliases: new Map(), functions: new Map(), calls: 0 });

/** The programs a command runs itself without running a reader's rules: judged by what they run. */
const TRANSPARENT = new Set([
  'sluice',
  'alias',
  'unalias',
  'export',
  'declare',
  'typeset',
  'local',
  'readonly',
  'set',
  'unset',
  'shift',
  'return',
  'exit',
  'wait',
]);
/** Programs that write into their working folder without naming it: archives unpacked, patches, git's checkouts. */
const WRITES_HERE = new Set(['tar', 'bsdtar', 'unzip', 'cpio', 'patch', '7z', 'ar', 'pax', 'unrar']);
/** Branch switches, merges and pulls are left to git-rules.ts and the OS sandbox: asking for each would ask all day. */
const GIT_WRITES_HERE = new Set(['checkout-index', 'apply', 'am', 'read-tree', 'restore']);

/** Words that hold code or several paths (`script -qc "rm .sdlc/x"`, an awk program): their parts are checked too. */
const SEPARATORS = /[\s'"<>|;(){}&,]+/;

export function noteWords(words: ShellWord[], scope: ShellScope, seen: Seen): void {
  if (seen.mention !== undefined) return;
  for (const w of words.flatMap(withParts)) {
    const m = mentionOf(w, scope);
    if (m !== undefined) {
      seen.mention = m;
      return;
    }
  }
}

function withParts(w: ShellWord): ShellWord[] {
  if (w.computed || w.params || !SEPARATORS.test(w.text) || w.text.length > 4096) return [w];
  const parts = w.text.split(SEPARATORS).filter((t) => t !== '' && t !== w.text);
  return [w, ...parts.map((text) => ({ text, dynamic: /[*?[]/.test(text), substitutions: [] }))];
}

/** One program with its words (after unwrapping); `nestedJudged` when its code was judged as a nested command. */
export function noteCommand(cmd: Unwrapped, scope: ShellScope, seen: Seen, nestedJudged: boolean): void {
  noteWords(pathWords(cmd), scope, seen);
  if (seen.mention === undefined && installsPackages(cmd) && scope.cwd !== undefined && existsSync(`${scope.cwd}/node_modules/sluice`))
    seen.mention = `${scope.cwd}/node_modules/sluice (sluice's installation, which a package install replaces)`;
  if (seen.mention === undefined && writesHere(cmd)) {
    const cwd = scope.cwd;
    if (cwd === undefined) seen.mention = 'the working folder (computed at run time)';
    else if (protectedPath(cwd, scope.places) || containsProtected(cwd, scope.places, existsSync, scope.projectDir))
      seen.mention = `${cwd} (the working folder, which holds sluice's records)`;
  }
  if (seen.writer === undefined && !nestedJudged && !TRANSPARENT.has(cmd.name) && !readerUse(cmd, scope)) seen.writer = cmd.name;
}

/** The words that may be paths: all but a commit's message (`git commit -m "$(cat <<'EOF' …)"`). */
function pathWords(cmd: Unwrapped): ShellWord[] {
  const words = cmd.argv.slice(1);
  if (cmd.name !== 'git') return words;
  return words.filter((w, i) => !/^(-m|--message)$/.test(words[i - 1]?.text ?? '') && !/^(-m.|--message=)/.test(w.text));
}

const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun']);
const INSTALLS = /^(install|i|ci|add|update|up|upgrade|remove|rm|uninstall|un|link|rebuild|dedupe|prune|import)$/;

/** `npm install`, `yarn` alone, `pnpm add …`: they rewrite node_modules/, sluice's package among it. */
function installsPackages(cmd: Unwrapped): boolean {
  if (!PACKAGE_MANAGERS.has(cmd.name)) return false;
  const sub = cmd.argv.slice(1).find((w) => !w.text.startsWith('-'))?.text;
  return sub === undefined ? cmd.name === 'yarn' : INSTALLS.test(sub);
}

function writesHere(cmd: Unwrapped): boolean {
  if (cmd.name === 'git') return GIT_WRITES_HERE.has(cmd.argv[gitSubcommandAt(cmd.argv)]?.text ?? '');
  return WRITES_HERE.has(cmd.name);
}

/** `alias NAME=VALUE` (literal): NAME then runs VALUE's words. */
export function noteAlias(argv: ShellWord[], seen: Seen): void {
  for (const w of argv.slice(1)) {
    const eq = w.text.indexOf('=');
    if (eq <= 0) continue;
    const words = w.text
      .slice(eq + 1)
      .split(/\s+/)
      .filter(Boolean)
      .map((text) => ({ text, dynamic: w.dynamic, substitutions: [] }));
    seen.aliases.set(w.text.slice(0, eq), words);
  }
}

/** The command's words with a defined alias put in place of its first word. */
export function withAlias(words: ShellWord[], seen: Seen): ShellWord[] {
  const first = words[0];
  const alias = first && !first.dynamic ? seen.aliases.get(first.text) : undefined;
  return alias ? [...alias, ...words.slice(1)] : words;
}

export function inversionDecision(seen: Seen): Decision {
  if (seen.mention === undefined || seen.writer === undefined) return allow;
  return {
    verdict: 'ask',
    reason: `the command names ${seen.mention} and runs ${seen.writer}, which is not one of the readers sluice's guard allows there`,
  };
}

/** A shell or `eval` given literal code: the code's own programs are what the command runs. */
export function judgedAsNested(cmd: { name: string; argv: ShellWord[] }): boolean {
  if (cmd.name === 'eval') return cmd.argv.slice(1).every((w) => !w.dynamic);
  if (!['sh', 'bash', 'zsh', 'dash', 'ksh'].includes(cmd.name)) return false;
  const at = cmd.argv.findIndex((w, i) => i > 0 && /^-[a-z]*c$/.test(w.text));
  return at > 0 && cmd.argv[at + 1] !== undefined && !cmd.argv[at + 1]!.dynamic;
}
