import { gitSubcommandAt } from './git-rules.ts';
import type { ShellScope } from './path-checks.ts';
import { mentionOf } from './protected-mentions.ts';
import { readsOnlyAsSed } from './sed-script.ts';
import type { ShellWord } from './shell-words.ts';
import { operands, type Unwrapped } from './unwrap-command.ts';

/**
 * The programs a command that names one of sluice's protected paths may run and still be allowed:
 * known readers, used as readers. Each entry says when the program only reads: an option that writes
 * (`sort -o`, `tree -o`, `sed -i`, `sed 'w FILE'`), a second operand that is an output file
 * (`uniq IN OUT`, `xxd IN OUT`), a program text that can write or run (`awk` with `>`, `|` or
 * `system`) makes it a writer. Everything not listed (xargs, script, interpreters, copiers, unknown
 * programs) is not a reader: the command is asked about.
 */
type ReaderRule = (argv: ShellWord[], scope: ShellScope) => boolean;

const always: ReaderRule = () => true;
const without =
  (...flags: string[]): ReaderRule =>
  (argv) =>
    !argv.slice(1).some((w) => flags.some((f) => w.text === f || (f.startsWith('--') ? w.text.startsWith(`${f}=`) : shortFlag(w.text, f))));

/** `-o` given alone or among short flags (`-no`), or with its value attached (`-ofile`). */
function shortFlag(text: string, flag: string): boolean {
  return /^-[a-zA-Z]/.test(text) && !text.startsWith('--') && text.includes(flag.slice(1));
}

const RULES: Record<string, ReaderRule> = {
  cat: always,
  head: always,
  tail: always,
  less: without('-o', '-O', '--log-file', '--LOG-FILE'),
  more: always,
  grep: always,
  egrep: always,
  fgrep: always,
  rg: without('--pre', '--pre-glob'),
  wc: always,
  ls: always,
  stat: always,
  file: without('-C', '--compile'),
  diff: always,
  cmp: always,
  sha256sum: always,
  sha1sum: always,
  sha512sum: always,
  md5sum: always,
  shasum: always,
  b2sum: always,
  jq: always,
  cut: always,
  tr: always,
  nl: always,
  od: always,
  hexdump: always,
  strings: always,
  column: always,
  du: always,
  tree: without('-o'),
  realpath: always,
  readlink: always,
  basename: always,
  dirname: always,
  pwd: always,
  echo: always,
  test: always,
  '[': always,
  '[[': always,
  true: always,
  false: always,
  ':': always,
  cd: always,
  pushd: always,
  popd: always,
  sleep: always,
  date: without('-s', '--set'),
  which: always,
  type: always,
  printf: without('-v'),
  sort: without('-o', '--output', '--compress-program'),
  uniq: (argv) => operands(argv, new Set(['-f', '-s', '-w', '--skip-fields', '--skip-chars', '--check-chars'])).operands.length <= 1,
  xxd: (argv) => !argv.some((w) => /^-(r|revert)$/.test(w.text)) && operands(argv, new Set(['-c', '-g', '-l', '-o', '-s', '-C'])).operands.length <= 1,
  sed: readsOnlyAsSed,
  awk: readsOnlyAsAwk,
  gawk: readsOnlyAsAwk,
  mawk: readsOnlyAsAwk,
  find: (argv) => !argv.some((w) => /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/.test(w.text)),
  git: readsOnlyAsGit,
  cp: copiesOut,
};

/** A word the shell computes (a glob character is no computation in a program text such as awk's or sed's). */
export const computed = (w: ShellWord): boolean => w.computed === true || w.params !== undefined || w.substitutions.length > 0;

export function readerUse(cmd: Unwrapped, scope: ShellScope): boolean {
  const rule = Object.hasOwn(RULES, cmd.name) ? RULES[cmd.name] : undefined;
  return rule !== undefined && rule(cmd.argv, scope);
}

/** `cp RECORD /tmp/backup`: a copy out of the records reads them; its one destination names nothing of sluice's. */
function copiesOut(argv: ShellWord[], scope: ShellScope): boolean {
  const { operands: ops, options } = operands(argv, new Set(['-S', '--suffix']));
  if (options.some((o) => /^(-t|--target-directory)/.test(o)) || ops.length < 2) return false;
  const dest = ops.at(-1)!;
  return !dest.dynamic && mentionOf(dest, scope) === undefined;
}

/**
 * awk reads as long as its program cannot write or run anything: no `>` or `|` (print into a file
 * or a command), no `system(`, no program file (`-f`, which the guard cannot see), no in-place or
 * loaded extension (gawk `-i`, `-l`, `-E`).
 */
function readsOnlyAsAwk(argv: ShellWord[]): boolean {
  let program: ShellWord | undefined;
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i]!.text;
    if (/^-(f|i|l|E)/.test(t) || /^--(file|include|load|exec|source)/.test(t)) return false;
    if (t === '-v' || t === '-F') i++;
    else if (/^-[vF]./.test(t) || (t.startsWith('-') && t !== '--')) continue;
    else {
      program = argv[t === '--' ? i + 1 : i];
      break;
    }
  }
  return program !== undefined && !computed(program) && !/[>|]|system|@load|@include/.test(program.text);
}

/** git subcommands that change neither the work tree nor git's settings (the index at most: `git add`). */
const GIT_READERS = new Set([
  'status',
  'diff',
  'log',
  'show',
  'ls-files',
  'ls-tree',
  'blame',
  'rev-parse',
  'rev-list',
  'describe',
  'shortlog',
  'cat-file',
  'grep',
  'add',
  'commit',
  'push',
  'branch',
  'tag',
  'remote',
  'fetch',
  'reflog',
  'whatchanged',
  'version',
  'help',
]);

function readsOnlyAsGit(argv: ShellWord[]): boolean {
  const at = gitSubcommandAt(argv);
  // -c sets any configuration (a pager, an external diff: programs git runs); --output writes a file.
  if (argv.slice(1, at).some((w) => w.text === '-c' || w.text.startsWith('--config-env') || w.text.startsWith('--exec-path'))) return false;
  const sub = argv[at]?.text ?? '';
  if (!GIT_READERS.has(sub)) return false;
  return !argv.slice(at + 1).some((w) => /^--(output|ext-diff|open-files-in-pager|textconv)|^-O/.test(w.text));
}
