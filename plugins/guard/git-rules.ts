import type { CommandJudge } from './command-rules.ts';
import { judgeCommitMessage, judgeMessageFile, TRAILER } from './commit-message.ts';
import { allow, stricter, type Decision } from './decision.ts';
import { checkRecursive, checkWrite, folderAfter, type ShellScope } from './path-checks.ts';
import type { ShellWord } from './shell-words.ts';
import { operands } from './unwrap-command.ts';

/**
 * What a `git` command would do to sluice's records: a hand-made lifecycle commit (the trailer in its
 * words, its raw text, a message file, or a message git takes from elsewhere), hooks run from a
 * folder the agent chose, and checkouts, resets and cleans over the records.
 */
const deny = (reason: string): Decision => ({ verdict: 'deny', reason });
const ask = (reason: string): Decision => ({ verdict: 'ask', reason });
const all = (ds: Decision[]): Decision => ds.reduce(stricter, allow);

const GIT_VALUED = new Set(['-C', '-c', '--git-dir', '--work-tree', '--namespace']);
const GIT_PATH_WRITERS = new Set(['checkout', 'restore', 'rm', 'mv', 'reset', 'stash', 'clean', 'switch']);

/** Where git's subcommand is, past its global options. */
export function gitSubcommandAt(argv: ShellWord[]): number {
  let i = 1;
  while (i < argv.length && argv[i]!.text.startsWith('-')) i += GIT_VALUED.has(argv[i]!.text) ? 2 : 1;
  return i;
}

/** git's own options before the subcommand that change what a commit does: `-C DIR`, `-c commit.template=`, `-c core.hooksPath=`. */
function gitGlobals(argv: ShellWord[], at: number, j: CommandJudge): { scope: ShellScope; templates: ShellWord[]; decision: Decision } {
  let scope = j.scope;
  const templates: ShellWord[] = [];
  let decision = allow;
  for (let i = 1; i < at; i++) {
    const opt = argv[i]!.text;
    const value = opt === '-C' || opt === '-c' ? argv[i + 1] : undefined;
    if (opt === '-C' && value) scope = { ...scope, cwd: folderAfter(value, scope.cwd) };
    if (opt === '-c' && value) {
      const eq = value.text.indexOf('=');
      const key = (eq < 0 ? value.text : value.text.slice(0, eq)).toLowerCase();
      if (key === 'commit.template' && eq >= 0) templates.push({ ...value, text: value.text.slice(eq + 1) });
      decision = stricter(decision, judgeGitSetting(key, value.dynamic));
    }
    if (opt.startsWith('--config-env'))
      decision = stricter(decision, { verdict: 'ask', reason: 'git --config-env sets git configuration from a variable sluice cannot see' });
    if (GIT_VALUED.has(opt)) i++;
  }
  return { scope, templates, decision };
}

/** Settings that decide who writes a commit or its message: hooks are the agent's code run by git itself. */
function judgeGitSetting(key: string, dynamic: boolean): Decision {
  if (dynamic) return ask('git is given a setting computed at run time; sluice cannot tell whether it makes git run hooks from another folder');
  if (key === 'core.hookspath')
    return deny('core.hooksPath makes git run hooks from another folder (a commit-msg hook can add the Lifecycle-Requirement trailer): only a person sets it');
  if (/^trailer\./.test(key)) return { verdict: 'ask', reason: 'a trailer setting can make git add the Lifecycle-Requirement trailer under another name' };
  return allow;
}

export function judgeGit(argv: ShellWord[], j: CommandJudge): Decision {
  const i = gitSubcommandAt(argv);
  const sub = argv[i]?.text;
  const rest = argv.slice(i);
  const globals = gitGlobals(argv, i, j);
  if (sub === 'commit') {
    if (rest.some((w) => TRAILER.test(w.text)) || TRAILER.test(j.rawText))
      return deny('a commit carrying the Lifecycle-Requirement trailer is a lifecycle commit: only `sluice lifecycle` makes it, after its checks and grant');
    const message = stricter(globals.decision, judgeCommitMessage(rest, globals.templates, globals.scope, j.readMessageFile, j.rawText));
    if (rest.some((w) => /^(-S|--gpg-sign)/.test(w.text))) return stricter(message, ask("git commit -S signs with the person's key"));
    return message;
  }
  if (sub === 'merge' || sub === 'commit-tree') {
    if (rest.some((w) => TRAILER.test(w.text)) || TRAILER.test(j.rawText))
      return deny(`git ${sub} would make a commit carrying the Lifecycle-Requirement trailer: only \`sluice lifecycle\` makes it`);
    return all([globals.decision, ...messageFiles(rest).map((w) => judgeMessageFile(w, 'message file', globals.scope, j.readMessageFile))]);
  }
  if (sub === 'cherry-pick' && !rest.some((w) => /^(-n|--no-commit|--abort|--quit|--skip)$/.test(w.text)))
    return stricter(globals.decision, ask('git cherry-pick copies the messages of existing commits, which may carry the Lifecycle-Requirement trailer'));
  if (sub === 'config') return stricter(globals.decision, judgeGitConfig(rest));
  if (!sub || !GIT_PATH_WRITERS.has(sub)) return globals.decision;
  const { operands: ops, options } = operands(rest, new Set(['-m', '--message', '-b', '-B', '--source', '-s']));
  // Paths are git's, from the folder `-C` names (`git -C .sdlc checkout -- state.yaml`).
  const at = globals.scope;
  const paths =
    sub === 'checkout' || sub === 'switch'
      ? ops.filter((w) => checkWrite(w, at).verdict !== 'allow' || w.text === '.')
      : ops.filter((w) => w.text !== 'push' && w.text !== 'save');
  const wholeTree =
    (sub === 'reset' && options.includes('--hard')) ||
    sub === 'clean' ||
    (sub === 'stash' && paths.length === 0 && !['list', 'show', 'pop', 'apply', 'drop'].includes(ops[0]?.text ?? ''));
  const cwd: ShellWord = { text: '.', dynamic: false, substitutions: [] };
  return all([globals.decision, ...paths.map((w) => checkRecursive(w, at)), ...(wholeTree ? [checkRecursive(cwd, at, `git ${sub} on the work tree`)] : [])]);
}

/** `git config KEY VALUE`: setting core.hooksPath is denied, a trailer alias asked about; reading is fine. */
function judgeGitConfig(rest: ShellWord[]): Decision {
  const { operands: ops, options } = operands(rest, new Set(['-f', '--file', '--blob', '--type', '--default', '--comment']));
  if (options.some((o) => /^--(get|list|get-all|get-regexp|get-urlmatch|get-color|get-colorbool)$|^-l$/.test(o))) return allow;
  const named = ops[0]?.text === 'set' ? ops[1] : ops[0];
  if (!named || ops.length < (ops[0]?.text === 'set' ? 3 : 2)) return allow; // a key alone reads it
  return judgeGitSetting(named.text.toLowerCase(), named.dynamic);
}

/** The message files of `git merge` / `git commit-tree` (`-F FILE`, `-FFILE`, `--file[=]FILE`). */
function messageFiles(rest: ShellWord[]): ShellWord[] {
  const files: ShellWord[] = [];
  for (let k = 1; k < rest.length; k++) {
    const t = rest[k]!.text;
    if (t === '--') break;
    if ((t === '-F' || t === '--file') && rest[k + 1]) files.push(rest[++k]!);
    else if (t.startsWith('--file=') || (t.startsWith('-F') && !t.startsWith('--')))
      files.push({ ...rest[k]!, text: t.slice(t.startsWith('--') ? 7 : 2), substitutions: [] });
  }
  return files;
}
