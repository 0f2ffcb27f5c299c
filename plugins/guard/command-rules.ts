import type { ReadMessageFile } from './commit-message.ts';
import { allow, stricter, type Decision } from './decision.ts';
import { checkDestination, checkRead, checkRecursive, checkWrite, type ShellScope } from './path-checks.ts';
import type { ShellWord } from './shell-words.ts';
import { gitSubcommandAt, judgeGit } from './git-rules.ts';
import { operands, unwrapCommand, type Unwrapped } from './unwrap-command.ts';

/**
 * What one simple command would do to sluice's records, judged by what the command is: writers
 * (rm, mv, cp, tee, sed -i …) on protected paths are denied; sluice's person-only commands (trust,
 * --sign) are denied and its approvals asked; a lifecycle commit made by hand is denied; an unknown
 * program given a protected path is asked about, since sluice cannot tell whether it writes it.
 */
export interface CommandJudge {
  scope: ShellScope;
  /** The whole command line, for text the parser leaves out of words (heredoc bodies). */
  rawText: string;
  /** Judges a nested shell string (`sh -c`, `eval`). */
  nested(text: string, scope: ShellScope): Decision;
  /** Reads a commit message file (`git commit -F`), bounded; tests give a fake. */
  readMessageFile: ReadMessageFile;
}

const deny = (reason: string): Decision => ({ verdict: 'deny', reason });
const ask = (reason: string): Decision => ({ verdict: 'ask', reason });
const all = (ds: Decision[]): Decision => ds.reduce(stricter, allow);

const MENTIONS_RECORD = /\.sdlc\b|\.sluice\b|\.prizmkit\/state|sluice|allowed_signers|\.git\/(hooks|config)/i;
const REMOVERS = new Set(['rm', 'unlink', 'shred', 'rmdir', 'truncate', 'touch', 'mkdir', 'tee', 'chattr', 'setfacl']);
const MODE_SETTERS = new Set(['chmod', 'chown', 'chgrp']);
const COPIERS = new Set(['cp', 'install', 'rsync', 'scp']);
const SHELLS = new Set(['sh', 'bash', 'zsh', 'dash', 'ksh', 'fish']);
const INTERPRETERS = new Set(['python', 'python3', 'python2', 'node', 'deno', 'bun', 'php', 'perl', 'ruby', 'Rscript', 'osascript', 'lua', 'tsx']);
const CODE_FLAGS = new Set(['-c', '-e', '-E', '--eval', '-p', '--print', '-r']);
/** Programs that only read their file operands. */
const READERS = new Set([
  'cat',
  'less',
  'more',
  'head',
  'tail',
  'grep',
  'egrep',
  'fgrep',
  'rg',
  'ag',
  'wc',
  'diff',
  'cmp',
  'ls',
  'stat',
  'file',
  'sha256sum',
  'sha1sum',
  'md5sum',
  'shasum',
  'jq',
  'bat',
  'tree',
  'echo',
  'printf',
  'test',
  '[',
  '[[',
  'realpath',
  'readlink',
  'basename',
  'dirname',
  'du',
  'sort',
  'uniq',
  'cut',
  'awk',
  'column',
  'nl',
  'od',
  'xxd',
  'hexdump',
  'strings',
  'sluice',
]);

export function judgeCommand(cmd: Unwrapped, j: CommandJudge): Decision {
  const { name, argv } = cmd;
  const reads = all(argv.slice(1).map((w) => checkRead(w, j.scope)));
  return stricter(reads, judgeByName(name, argv, j));
}

function judgeByName(name: string, argv: ShellWord[], j: CommandJudge): Decision {
  const s = j.scope;
  if (REMOVERS.has(name) || MODE_SETTERS.has(name)) {
    const { options, operands: ops } = operands(argv, new Set(['-s', '--size', '-m', '--mode', '-r', '--reference']));
    const recursive = options.some((o) => /^-[a-zA-Z]*[rR]|^--recursive$/.test(o));
    const targets = MODE_SETTERS.has(name) && !options.some((o) => o.startsWith('--reference')) ? ops.slice(1) : ops;
    return all(targets.map((w) => (recursive ? checkRecursive(w, s) : checkWrite(w, s))));
  }
  if (COPIERS.has(name) || name === 'mv' || name === 'ln') return judgeCopy(name, argv, s);
  if (name === 'dd') return all(argv.filter((w) => w.text.startsWith('of=')).map((w) => checkWrite({ ...w, text: w.text.slice(3) }, s)));
  if (name === 'sed' || name === 'perl' || name === 'ruby' || name === 'yq') {
    const inPlace = argv.slice(1).some((w) => /^-i|^--in-place|^-[a-zA-Z]*i/.test(w.text) && !w.text.startsWith('--inc'));
    if (inPlace) {
      const { operands: ops, values } = operands(argv, new Set(['-e', '-f', '--expression', '--file']));
      const files = name === 'sed' && values.size === 0 ? ops.slice(1) : name === 'perl' || name === 'ruby' ? ops : ops.slice(name === 'yq' ? 1 : 0);
      return stricter(all(files.map((w) => checkWrite(w, s))), inlineCode(name, argv));
    }
    if (name === 'sed' || name === 'yq') return allow; // without -i they only print
  }
  if (SHELLS.has(name)) {
    const at = argv.findIndex((w, i) => i > 0 && /^-[a-z]*c$/.test(w.text));
    if (at < 0) return readsStdin(argv) ? ask(`${name} runs the commands on its standard input, which sluice's guard cannot see`) : allow;
    const code = argv[at + 1];
    if (!code) return allow;
    return code.dynamic ? ask(`${name} -c runs a command computed at run time`) : j.nested(code.text, s);
  }
  if (name === 'eval')
    return argv.slice(1).some((w) => w.dynamic)
      ? ask('eval runs a command computed at run time')
      : j.nested(
          argv
            .slice(1)
            .map((w) => w.text)
            .join(' '),
          s,
        );
  if (INTERPRETERS.has(name)) return stricter(inlineCode(name, argv), interpreterStdin(name, argv));
  if (name === 'script') {
    const at = argv.findIndex((w, i) => i > 0 && (/^-[a-zA-Z]*c$/.test(w.text) || w.text === '--command'));
    const code = at > 0 ? argv[at + 1] : undefined;
    if (!code) return ask("script runs an interactive shell on its standard input, which sluice's guard cannot see");
    return code.dynamic ? ask('script -c runs a command computed at run time') : j.nested(code.text, s);
  }
  if (name === 'watch') {
    const { operands: ops } = operands(argv, new Set(['-n', '--interval', '-d', '--differences', '-q', '--equexit']));
    return ops.some((w) => w.dynamic) ? ask('watch runs a command computed at run time') : j.nested(ops.map((w) => w.text).join(' '), s);
  }
  if (name === 'find') return judgeFind(argv, s);
  if (name === 'git') return judgeGit(argv, j);
  if (name === 'ssh-keygen')
    return argv.some((w, i) => w.text === '-Y' && argv[i + 1]?.text === 'sign')
      ? deny("ssh-keygen -Y sign makes a signature with the person's key: only the person signs approvals")
      : allow;
  if (name === 'sluice') return judgeSluice(argv);
  if (name === 'xargs') return judgeXargs(argv);
  if (READERS.has(name)) return allow;
  // Any other program handed one of sluice's records may write it: ask the person.
  const given = argv
    .slice(1)
    .map((w) => ({ w, d: checkWrite(w, s) }))
    .find((x) => x.d.verdict !== 'allow' && !x.w.dynamic);
  return given ? ask(`${name} is given ${given.w.text}; sluice cannot tell whether it changes it (${given.d.reason})`) : allow;
}

/**
 * `echo … | sh`, `bash -s`, `sh -`: a shell with no script file runs whatever arrives on its standard
 * input, which the guard cannot see. A script file (`bash build.sh`) is a program like any other.
 */
function readsStdin(argv: ShellWord[]): boolean {
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i]!.text;
    if (t === '--') return i + 1 >= argv.length;
    if (t === '-' || /^-[a-zA-Z]*s/.test(t)) return true;
    if (t === '-o' || t === '+o' || t === '-O' || t === '+O' || t === '--rcfile' || t === '--init-file') i++;
    else if (!/^[-+]/.test(t)) return false;
  }
  return true;
}

/** `echo CODE | python3`, `node -`: an interpreter given no script runs the code on its standard input, unseen. */
function interpreterStdin(name: string, argv: ShellWord[]): Decision {
  for (let i = 1; i < argv.length; i++) {
    const t = argv[i]!.text;
    if (CODE_FLAGS.has(t) || t === '-m' || t === '--version' || t === '-V' || t === '--help') return allow;
    if (t === '-') break;
    if (!t.startsWith('-')) return allow;
  }
  return ask(`${name} runs the code on its standard input, which sluice's guard cannot see`);
}

/** `python -c CODE`, `node -e CODE`: code that names a record is asked about; other code is invisible to the guard. */
function inlineCode(name: string, argv: ShellWord[]): Decision {
  const code = argv.find((w, i) => i > 0 && CODE_FLAGS.has(argv[i - 1]!.text));
  return code && MENTIONS_RECORD.test(code.text) ? ask(`${name} runs inline code that names sluice's records`) : allow;
}

function judgeCopy(name: string, argv: ShellWord[], s: ShellScope): Decision {
  const { operands: ops, values, options } = operands(argv, new Set(['-t', '--target-directory', '-S', '--suffix', '-m', '--mode', '-o', '-g', '-e']));
  const targetOpt = values.get('-t') ?? values.get('--target-directory') ?? inlineTarget(options);
  const dest = targetOpt ?? ops.at(-1);
  const sources = targetOpt ? ops : ops.slice(0, -1);
  if (!dest) return allow;
  let d = checkDestination(dest, sources, s);
  if (name === 'mv') d = stricter(d, all(sources.map((w) => checkRecursive(w, s, 'the moved path'))));
  if (name === 'rsync' && options.some((o) => o.startsWith('--delete'))) d = stricter(d, checkRecursive(dest, s));
  if (name === 'ln') {
    const linked = sources.find((w) => checkWrite(w, s).verdict !== 'allow');
    if (linked) d = stricter(d, ask(`a link to ${linked.text} would let later writes reach sluice's records`));
  }
  return d;
}

function inlineTarget(options: string[]): ShellWord | undefined {
  const o = options.find((x) => x.startsWith('--target-directory='));
  return o ? { text: o.slice('--target-directory='.length), dynamic: false, substitutions: [] } : undefined;
}

const FIND_ACTIONS = /^-(delete|exec|execdir|ok|okdir|fprint|fprint0|fprintf|fls)$/;

function judgeFind(argv: ShellWord[], s: ShellScope): Decision {
  if (!argv.some((w) => FIND_ACTIONS.test(w.text))) return allow;
  const roots: ShellWord[] = [];
  for (const w of argv.slice(1)) {
    if (/^[-(!]/.test(w.text)) break;
    roots.push(w);
  }
  return all((roots.length ? roots : [{ text: '.', dynamic: false, substitutions: [] }]).map((w) => checkRecursive(w, s)));
}

/**
 * Programs whose standard input is only data, never code or paths to act on: a here-document they
 * read needs no judging beyond its substitutions (shells, interpreters, xargs, git apply… are not here).
 */
const DATA_READERS = new Set(['cat', 'tee', 'head', 'tail', 'wc', 'grep', 'sort', 'uniq', 'cut', 'tr', 'base64', 'jq', 'echo', 'printf', ':', 'true']);

export function readsHeredocAsData(cmd: Unwrapped): boolean {
  if (cmd.name === 'git') return cmd.argv[gitSubcommandAt(cmd.argv)]?.text === 'commit';
  return DATA_READERS.has(cmd.name);
}

/** `xargs CMD`: CMD's words come from standard input, unseen; sluice run so may be a person-only command. */
function judgeXargs(argv: ShellWord[]): Decision {
  const { operands: ops } = operands(
    argv,
    new Set(['-a', '--arg-file', '-d', '--delimiter', '-E', '-e', '-I', '-i', '-L', '-l', '-n', '--max-args', '-P', '--max-procs', '-s']),
  );
  const cmd = unwrapCommand(ops);
  if (!cmd) return ops.length > 0 ? ask('xargs runs a program computed at run time') : allow;
  return cmd.name === 'sluice' || SHELLS.has(cmd.name) || cmd.name === 'eval'
    ? ask(`xargs runs ${cmd.name} with words from its standard input, which sluice's guard cannot see`)
    : allow;
}

const SLUICE_VALUED = new Set(['--cwd', '--concurrency']);

function judgeSluice(argv: ShellWord[]): Decision {
  let i = 1;
  while (i < argv.length && argv[i]!.text.startsWith('-')) i += SLUICE_VALUED.has(argv[i]!.text) ? 2 : 1;
  const sub = argv[i]?.text;
  const words = argv.map((w) => w.text);
  if (argv.slice(1).some((w) => w.dynamic))
    return ask('sluice is given words computed at run time: it may be one of the commands only a person runs (trust, --sign, next --confirmed)');
  if (sub === 'trust') return deny('`sluice trust` decides which project code may run: only the person runs it, in their own terminal');
  if (sub === 'lifecycle' && words.includes('adopt-commit'))
    return deny("`sluice lifecycle adopt-commit` takes a commit made outside sluice as the requirement's: only the person runs it, in their own terminal");
  if (words.some((w) => w === '--sign' || w.startsWith('--sign=')))
    return deny("--sign signs with the person's SSH key: only the person signs, in their own terminal");
  if (sub === 'next' && words.some((w) => w === '--confirmed' || w === '--approve' || w.startsWith('--approve=')))
    return deny('`sluice next --confirmed` / `--approve` records a person approving the phase: only the person runs it, in their own terminal');
  if (sub === 'skip') return deny("`sluice skip` moves the project past a phase on a person's say-so: only the person runs it, in their own terminal");
  if (words.slice(i).some((w) => w === 'anchor' || w === 'approve'))
    return deny(
      `\`sluice … ${words.includes('anchor') ? 'anchor' : 'approve'}\` vouches for the records on a person's say-so: only the person runs it, in their own terminal`,
    );
  if (sub === 'reenter') return ask(`sluice ${sub} moves the project between phases on a person's say-so`);
  if (sub === 'waivers' && argv[i + 1]?.text === 'accept') return ask('this records a person accepting unfinished artifacts (WAIVED lines)');
  if (sub === 'refreeze') return ask("this accepts a changed frozen file (profile, registry, compliance) on a person's say-so");
  if (sub === 'hooks') return ask("this changes the Claude Code hooks that guard sluice's records");
  if (sub === 'init' && words.includes('--force')) return ask("sluice init --force replaces the project's records");
  return allow;
}
