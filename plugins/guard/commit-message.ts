import { allow, stricter, type Decision } from './decision.ts';
import { checkRead, type ShellScope } from './path-checks.ts';
import { absolutePath } from './resolve-path.ts';
import type { ShellWord } from './shell-words.ts';

/**
 * Where a `git commit`'s message comes from, and whether it may carry sluice's lifecycle trailer.
 * The words and the raw text are read by the caller; here: a message file (`-F`, `--file`, `-t`,
 * `--template`, `-c commit.template=`), read through an injected reader and never quoted; a message
 * reused from an existing commit (`-C`, `-c`, `--amend`, `--fixup=amend:`, `--squash`) or written by
 * an editor, which the guard cannot see without running git (it must stay fast): asked about.
 */
export const TRAILER = /lifecycle-requirement/i;

/** What the guard's reader found in a message file: its text (bounded), or why it has none. */
export type MessageFile = { text: string } | { problem: 'missing' | 'not a regular file' | 'too large' | 'unreadable' };
export type ReadMessageFile = (absolutePath: string) => MessageFile;

/** git commit's long options (git 2.39), for resolving the abbreviations git accepts (`--fil=m.txt`). */
const LONG = [
  'ahead-behind',
  'all',
  'allow-empty',
  'allow-empty-message',
  'amend',
  'author',
  'branch',
  'cleanup',
  'date',
  'dry-run',
  'edit',
  'file',
  'fixup',
  'gpg-sign',
  'include',
  'interactive',
  'long',
  'message',
  'no-edit',
  'no-post-rewrite',
  'no-verify',
  'null',
  'only',
  'patch',
  'pathspec-file-nul',
  'pathspec-from-file',
  'porcelain',
  'quiet',
  'reedit-message',
  'reset-author',
  'reuse-message',
  'short',
  'signoff',
  'squash',
  'status',
  'template',
  'trailer',
  'untracked-files',
  'verbose',
];
/** Long options whose value is the next word when not given after `=`. */
const LONG_VALUED = new Set([
  'author',
  'cleanup',
  'date',
  'file',
  'fixup',
  'message',
  'pathspec-from-file',
  'reedit-message',
  'reuse-message',
  'squash',
  'template',
  'trailer',
]);
const SHORT_TO_LONG: Record<string, string> = { m: 'message', F: 'file', t: 'template', C: 'reuse-message', c: 'reedit-message', e: 'edit' };
/** Short options that take the rest of their cluster or the next word (`-am msg`, `-Fmsg.txt`). */
const SHORT_VALUED = new Set(['m', 'F', 't', 'C', 'c']);
/** Short options whose value, if any, is only the rest of their cluster (`-Skey`, `-uno`). */
const SHORT_OPTIONAL = new Set(['S', 'u']);
const SENSITIVE = new Set(['file', 'template', 'reuse-message', 'reedit-message', 'amend', 'fixup', 'squash', 'message', 'edit', 'no-edit']);

interface CommitOption {
  name: string;
  value?: ShellWord;
  /** The value is glued to a short option (`-Fmsg.txt`): it does not stand alone in the raw text. */
  glued?: boolean;
}

/** git's rule: an exact name, else a unique prefix; an ambiguous prefix that may mean a message option is kept as such. */
function longName(given: string): string | undefined {
  if (LONG.includes(given)) return given;
  const candidates = LONG.filter((n) => n.startsWith(given));
  if (candidates.length === 1) return candidates[0];
  return candidates.some((n) => SENSITIVE.has(n)) ? 'ambiguous' : undefined;
}

const slice = (w: ShellWord, from: number): ShellWord => ({ text: w.text.slice(from), dynamic: w.dynamic, substitutions: [] });

/** The options of `git commit …` (argv from `commit` on), as git's option parser reads them. */
export function commitOptions(argv: ShellWord[]): CommitOption[] {
  const out: CommitOption[] = [];
  for (let i = 1; i < argv.length; i++) {
    const w = argv[i]!;
    const t = w.text;
    if (t === '--') break;
    if (t.startsWith('--')) {
      const eq = t.indexOf('=');
      const name = longName(eq < 0 ? t.slice(2) : t.slice(2, eq));
      if (!name) continue;
      const value = eq >= 0 ? slice(w, eq + 1) : LONG_VALUED.has(name) ? argv[++i] : undefined;
      out.push({ name, value });
    } else if (t.startsWith('-') && t !== '-') {
      for (let k = 1; k < t.length; k++) {
        const c = t[k]!;
        if (SHORT_VALUED.has(c)) {
          out.push(k + 1 < t.length ? { name: SHORT_TO_LONG[c]!, value: slice(w, k + 1), glued: true } : { name: SHORT_TO_LONG[c]!, value: argv[++i] });
          break;
        }
        if (SHORT_OPTIONAL.has(c)) break;
        if (SHORT_TO_LONG[c]) out.push({ name: SHORT_TO_LONG[c]! });
      }
    }
  }
  return out;
}

const ask = (reason: string): Decision => ({ verdict: 'ask', reason });

/** A message file's verdict: denied when it carries the trailer; asked about when it cannot be known. Never quotes the file. */
export function judgeMessageFile(word: ShellWord | undefined, what: string, scope: ShellScope, read: ReadMessageFile): Decision {
  if (!word) return allow;
  if (word.text === '-') return allow; // standard input: a here-document or pipe in the raw text, judged by the caller
  if (word.dynamic)
    return ask(
      `the commit's ${what} ${JSON.stringify(word.text)} is computed when the command runs; sluice cannot check it for the Lifecycle-Requirement trailer`,
    );
  if (scope.cwd === undefined && !word.text.startsWith('/') && !word.text.startsWith('~'))
    return ask(`the commit's ${what} ${JSON.stringify(word.text)} is relative to a folder computed at run time`);
  const guarded = checkRead(word, scope);
  if (guarded.verdict !== 'allow') return guarded;
  const path = absolutePath(word.text, scope.cwd ?? scope.projectDir);
  const found = read(path);
  if ('text' in found)
    return TRAILER.test(found.text)
      ? {
          verdict: 'deny',
          reason: `the commit's ${what} ${word.text} carries the Lifecycle-Requirement trailer: only \`sluice lifecycle\` makes a lifecycle commit`,
        }
      : allow;
  const why =
    found.problem === 'missing' ? 'does not exist yet (the command may write it first)' : `is ${found.problem === 'unreadable' ? 'unreadable' : found.problem}`;
  return ask(`the commit's ${what} ${word.text} ${why}; sluice cannot check it for the Lifecycle-Requirement trailer`);
}

/**
 * The message sources of one `git commit` (argv from `commit` on; `cwd` is where git runs, after
 * `git -C`); `templates` are `-c commit.template=…` values given to git itself.
 */
export function judgeCommitMessage(argv: ShellWord[], templates: ShellWord[], scope: ShellScope, read: ReadMessageFile, rawText: string): Decision {
  const opts = commitOptions(argv);
  const has = (...names: string[]) => opts.some((o) => names.includes(o.name));
  let d = allow;
  for (const o of opts) {
    if (o.name === 'file') d = stricter(d, judgeMessageFile(o.value, 'message file', scope, read));
    if (o.name === 'template') d = stricter(d, judgeMessageFile(o.value, 'template', scope, read));
  }
  for (const t of templates) d = stricter(d, judgeMessageFile(t, 'template (commit.template)', scope, read));
  // A file written earlier in the same command line is judged as it is now, before the command runs.
  for (const o of opts)
    if ((o.name === 'file' || o.name === 'template') && o.value && o.value.text !== '-' && mentions(rawText, o.value.text) > (o.glued ? 0 : 1))
      d = stricter(d, ask(`the commit's message file ${o.value.text} is also named elsewhere in the command, which may write it before the commit reads it`));
  if (has('ambiguous')) return stricter(d, ask('git commit is given an abbreviated option sluice cannot tell from a message option'));
  const reused = opts.find((o) => o.name === 'reuse-message' || o.name === 'reedit-message');
  if (reused) return stricter(d, ask(`git commit --${reused.name} takes the message of an existing commit, which may carry the Lifecycle-Requirement trailer`));
  const fixup = opts.find(
    (o) => (o.name === 'fixup' && /^(amend|reword):/.test(o.value?.text ?? '')) || o.name === 'squash' || (o.name === 'fixup' && o.value?.dynamic),
  );
  if (fixup) return stricter(d, ask(`git commit --${fixup.name} copies the message of an existing commit, which may carry the Lifecycle-Requirement trailer`));
  const newMessage = has('message', 'file');
  if (has('amend') && !newMessage)
    return stricter(d, ask("git commit --amend without a new message keeps the existing commit's message, which may carry the Lifecycle-Requirement trailer"));
  if (has('dry-run', 'porcelain', 'short', 'long')) return d; // shows what would be committed, commits nothing
  if (has('edit') || (!newMessage && !has('fixup', 'amend')))
    return stricter(
      d,
      ask('the commit message is written by an editor (GIT_EDITOR, core.editor, a template), which sluice cannot check for the Lifecycle-Requirement trailer'),
    );
  return d;
}

/** How often `name` stands as a whole word or path in the text (not inside a longer name). */
function mentions(text: string, name: string): number {
  let n = 0;
  for (let at = text.indexOf(name); at >= 0; at = text.indexOf(name, at + 1))
    if (!/[\w./-]/.test(text[at - 1] ?? ' ') && !/[\w./-]/.test(text[at + name.length] ?? ' ')) n++;
  return n;
}
