import parse, { type ShellNode } from '@ericcornelissen/bash-parser';
import { judgeCommand, readsHeredocAsData } from './command-rules.ts';
import type { ReadMessageFile } from './commit-message.ts';
import { allow, stricter, type Decision } from './decision.ts';
import { BODY_PLACEHOLDER, CONSUMER_MARKER, DELIMITER, type HeredocRewrite, rewriteQuotedHeredocs, substitutionsIn } from './heredoc-bodies.ts';
import { readMessageFile } from './message-file.ts';
import { checkWrite, folderAfter, type ShellScope } from './path-checks.ts';
import { absolutePath } from './resolve-path.ts';
import { commandParts, type ShellWord, toWord, writesFile } from './shell-words.ts';
import { credentialInCommand, credentialInText, exportsAll } from './credential-variables.ts';
import { forgetMentions } from './protected-mentions.ts';
import { inversionDecision, judgedAsNested, newSeen, noteAlias, noteCommand, noteWords, type Seen, withAlias } from './reader-inversion.ts';
import { assignedValue, bind, expandWords } from './shell-variables.ts';
import { unwrapCommand } from './unwrap-command.ts';

/**
 * Judges a Bash tool command from its syntax tree (bash-parser), never from regexes over the text:
 * every simple command (in lists, pipelines, subshells, functions, loops and `$(...)`) and every
 * redirection is checked, with `cd` followed through the list. What cannot be known before the
 * command runs (a computed path, a command that does not parse) is asked about, not allowed.
 */
const MAX_DEPTH = 8;

type Parse = (source: string, options?: { mode?: 'bash' | 'posix' }) => ShellNode;

interface Walk {
  parse: Parse;
  rawText: string;
  rewriteHeredocs: boolean;
  readMessageFile: ReadMessageFile;
  depth: number;
  decision: Decision;
  /** Set while walking a text whose quoted here-document bodies were swapped for placeholders. */
  heredocs?: HeredocSeen;
  /** What the command names and runs, for "only readers near the records" (reader-inversion.ts). */
  seen: Seen;
}

/** What the walk met of the rewrite: each body's reader (and whether it only reads data) and placeholder. */
interface HeredocSeen {
  bodies: string[];
  readers: { k: string; data: boolean }[];
  placeholders: string[];
}

/**
 * `rewriteHeredocs: false` judges here-document bodies as commands, as before the rewrite (the tests'
 * reference); `readFile` reads commit message files (`git commit -F`), a fake in tests.
 */
export function judgeShell(command: string, scope: ShellScope, rewriteHeredocs = true, readFile: ReadMessageFile = readMessageFile): Decision {
  const walk: Walk = { parse, rawText: command, depth: 0, decision: allow, rewriteHeredocs, readMessageFile: readFile, seen: newSeen() };
  forgetMentions();
  add(walk, credentialInText(command));
  judgeText(command, scope, walk);
  return stricter(walk.decision, inversionDecision(walk.seen));
}

function judgeText(text: string, scope: ShellScope, walk: Walk): void {
  const rewrite = walk.rewriteHeredocs ? rewriteQuotedHeredocs(text) : undefined;
  if (rewrite && judgeRewritten(rewrite, scope, walk)) return;
  let ast: ShellNode;
  try {
    ast = walk.parse(text, { mode: 'bash' });
  } catch {
    add(walk, { verdict: 'ask', reason: "the command uses shell syntax sluice's guard cannot read, so it cannot tell what it writes" });
    return;
  }
  node(ast, scope, walk);
}

/**
 * Judges the text with its quoted here-document bodies swapped out, if the parser saw exactly the
 * here-documents the rewrite found, each read by a command that takes its input as data only (cat,
 * tee, git commit …). Otherwise false: the original text is judged as before (bodies as commands).
 */
function judgeRewritten(rewrite: HeredocRewrite, scope: ShellScope, walk: Walk): boolean {
  let ast: ShellNode;
  try {
    ast = walk.parse(rewrite.text, { mode: 'bash' });
  } catch {
    return false;
  }
  const seen: HeredocSeen = { bodies: rewrite.bodies, readers: [], placeholders: [] };
  const inner: Walk = { ...walk, decision: allow, heredocs: seen, seen: { ...walk.seen } };
  node(ast, scope, inner);
  // bash-parser repeats a substitution's tree in the next command's assignment, so a body may be met twice.
  const keys = rewrite.bodies.map((_, k) => String(k));
  const matched =
    seen.readers.every((r) => r.data && keys.includes(r.k)) &&
    seen.placeholders.every((k) => keys.includes(k)) &&
    keys.every((k) => seen.placeholders.includes(k) && seen.readers.some((r) => r.k === k));
  if (matched) {
    add(walk, inner.decision);
    Object.assign(walk.seen, {
      mention: walk.seen.mention ?? inner.seen.mention,
      writer: walk.seen.writer ?? inner.seen.writer,
      exportsAll: inner.seen.exportsAll,
    });
  }
  return matched;
}

/**
 * The rewrite's own words in a simple command: a body placeholder is judged by the substitutions
 * the body would run were it unquoted (belt and braces: a quoted body runs none); a reader's marker
 * is recorded and taken out of its words. Returns undefined for a placeholder (nothing else to judge).
 */
function heredocWords(words: ShellWord[], alone: boolean, scope: ShellScope, walk: Walk): ShellWord[] | undefined {
  const seen = walk.heredocs!;
  const first = words[0]?.text ?? '';
  // The rewrite's own delimiter line, which bash-parser (knowing no here-documents) reads as a command.
  if (alone && words.length === 1 && first === DELIMITER) return undefined;
  if (alone && words.length === 1 && first.startsWith(BODY_PLACEHOLDER)) {
    const k = first.slice(BODY_PLACEHOLDER.length);
    seen.placeholders.push(k);
    const subs = substitutionsIn(seen.bodies[Number(k)] ?? '');
    if (!subs) add(walk, { verdict: 'ask', reason: "a here-document holds a substitution sluice's guard cannot read" });
    for (const sub of subs ?? []) add(walk, nestedText(sub, scope, walk, "the command nests substitutions too deeply for sluice's guard"));
    return undefined;
  }
  const marks = words.filter((w) => w.text.startsWith(CONSUMER_MARKER));
  if (marks.length === 0) return words;
  const rest = words.filter((w) => !marks.includes(w));
  const cmd = unwrapCommand(rest);
  for (const m of marks) seen.readers.push({ k: m.text.slice(CONSUMER_MARKER.length), data: cmd !== undefined && readsHeredocAsData(cmd) });
  return rest;
}

/** A nested shell text's verdict (`sh -c`, `eval`, a here-document's substitution). */
function nestedText(text: string, scope: ShellScope, walk: Walk, tooDeep: string): Decision {
  if (walk.depth >= MAX_DEPTH) return { verdict: 'ask', reason: tooDeep };
  const inner: Walk = { ...walk, depth: walk.depth + 1, decision: allow, heredocs: undefined };
  judgeText(text, scope, inner);
  return inner.decision;
}

function add(walk: Walk, d: Decision): void {
  walk.decision = stricter(walk.decision, d);
}

/** Walks a node; returns the working folder after it (changed by `cd` in a list). */
function node(n: ShellNode | undefined, scope: ShellScope, walk: Walk): ShellScope {
  if (!n) return scope;
  for (const r of (n.redirections as ShellNode[] | undefined) ?? []) redirect(r, scope, walk);
  switch (n.type) {
    case 'Script':
    case 'CompoundList':
      return list(n.commands as ShellNode[], scope, walk, n.type === 'Script' ? scope : undefined);
    case 'LogicalExpression':
      return node(n.right as ShellNode, node(n.left as ShellNode, scope, walk), walk);
    case 'Pipeline':
      for (const c of n.commands as ShellNode[]) node(c, scope, walk);
      return scope;
    case 'Subshell':
      node(n.list as ShellNode, scope, walk);
      return scope;
    case 'If':
      node(n.else as ShellNode | undefined, node(n.then as ShellNode, node(n.clause as ShellNode, scope, walk), walk), walk);
      return scope;
    case 'While':
    case 'Until':
      node(n.do as ShellNode, node(n.clause as ShellNode, scope, walk), walk);
      return scope;
    case 'For': {
      const words = expandWords(((n.wordlist as ShellNode[] | undefined) ?? []).map(toWord), scope);
      substitutions(words, scope, walk);
      noteWords(words, scope, walk.seen);
      const name = String((n.name as ShellNode).text);
      node(n.do as ShellNode, { ...scope, bound: bind(scope, name, n.wordlist ? words : null) }, walk);
      return scope;
    }
    case 'Case':
      for (const c of (n.cases as ShellNode[] | undefined) ?? []) node(c.body as ShellNode | undefined, scope, walk);
      return scope;
    case 'Function':
      walk.seen.functions.set(String((n.name as ShellNode).text), n.body as ShellNode);
      node(n.body as ShellNode, scope, walk);
      return scope;
    case 'Command':
      return simpleCommand(n, scope, walk);
    default:
      add(walk, { verdict: 'ask', reason: `the command uses shell syntax (${n.type}) sluice's guard does not judge` });
      return scope;
  }
}

function list(commands: ShellNode[], scope: ShellScope, walk: Walk, restore?: ShellScope): ShellScope {
  let s = scope;
  for (const c of commands) s = node(c, s, walk);
  return restore ?? s;
}

function redirect(r: ShellNode, scope: ShellScope, walk: Walk): void {
  if (r.type !== 'Redirect') return;
  const parsed = { op: String((r.op as ShellNode).text), file: toWord(r.file as ShellNode) };
  if (writesFile(parsed)) add(walk, checkWrite(parsed.file, scope, 'the redirection target'));
}

function substitutions(words: ShellWord[], scope: ShellScope, walk: Walk): void {
  for (const w of words) {
    for (const sub of w.substitutions) {
      if (!sub) add(walk, { verdict: 'ask', reason: `the command substitution in ${JSON.stringify(w.text)} cannot be read by sluice's guard` });
      else if (walk.depth < MAX_DEPTH) add(walk, nestedDecision(sub, scope, walk));
      else add(walk, { verdict: 'ask', reason: "the command nests substitutions too deeply for sluice's guard" });
    }
  }
}

/** A nested tree's verdict, walked in a copy so its `cd` does not leak out. */
function nestedDecision(ast: ShellNode, scope: ShellScope, walk: Walk): Decision {
  const inner: Walk = { ...walk, depth: walk.depth + 1, decision: allow };
  node(ast, scope, inner);
  return inner.decision;
}

/** Variables that hand sluice a person's trust, grant or key: an agent setting one vouches for itself. */
const PERSON_ONLY_VARIABLE = /^(SLUICE_TRUSTED_HASH|SLUICE_COMMIT_GRANT|SLUICE_SIGNING_KEY)\+?=/;

/** git configuration given through the environment (`GIT_CONFIG_KEY_0=core.hooksPath`), as `git -c` gives it. */
const GIT_CONFIG_VARIABLE = /^(GIT_CONFIG_KEY_\d+|GIT_CONFIG_PARAMETERS)=/;

function simpleCommand(n: ShellNode, scope: ShellScope, walk: Walk): ShellScope {
  const parts = commandParts(n);
  if (walk.heredocs) {
    const words = heredocWords(parts.words, parts.assignments.length === 0 && parts.redirects.length === 0, scope, walk);
    if (!words) return scope;
    parts.words = words;
  }
  substitutions([...parts.assignments, ...parts.words, ...parts.redirects.map((r) => r.file)], scope, walk);
  // Known variables put in (`D=.sdlc; rm -rf $D`, `$HOME/.config/sluice/…`), aliases defined earlier in the command.
  const assignments = expandWords(parts.assignments, scope);
  const words = withAlias(expandWords(parts.words, scope), walk.seen);
  const redirects = parts.redirects.map((r) => ({ ...r, file: expandWords([r.file], scope)[0]! }));
  const vouching = [...assignments, ...words].find((w) => PERSON_ONLY_VARIABLE.test(w.text));
  if (vouching)
    add(walk, { verdict: 'deny', reason: `${vouching.text.split('=')[0]} carries a person's trust, grant or signing key: only the person sets it` });
  const gitSetting = [...assignments, ...words].find((w) => GIT_CONFIG_VARIABLE.test(w.text) && (w.dynamic || /core\.hookspath/i.test(w.text)));
  if (gitSetting)
    add(walk, {
      verdict: gitSetting.dynamic ? 'ask' : 'deny',
      reason: `${gitSetting.text.split('=')[0]} sets git's core.hooksPath (or may): hooks from another folder can add the Lifecycle-Requirement trailer`,
    });
  for (const r of redirects) if (writesFile(r)) add(walk, checkWrite(r.file, scope, 'the redirection target'));
  noteWords([...assignments.map(assignedValue), ...redirects.map((r) => r.file)], scope, walk.seen);
  if (words.length === 0)
    return {
      ...scope,
      bound: assignments.reduce((b, a) => bind({ ...scope, bound: b }, a.text.split('=')[0]!.replace(/\+$/, ''), [assignedValue(a)]), scope.bound),
    };
  const cmd = unwrapCommand(words);
  if (!cmd) {
    add(walk, { verdict: 'ask', reason: `the program run is computed at run time (${JSON.stringify(words[0]!.text)}); sluice cannot tell what it does` });
    walk.seen.writer ??= words[0]!.text;
    return scope;
  }
  add(walk, credentialInCommand(cmd.name, cmd.argv, scope, walk.seen.exportsAll));
  if (exportsAll(cmd.name, cmd.argv)) walk.seen.exportsAll = true;
  if (cmd.name === 'alias') noteAlias(cmd.argv, walk.seen);
  const body = walk.seen.functions.get(cmd.name);
  if (body) return callFunction(body, cmd.argv, scope, walk);
  noteCommand(cmd, scope, walk.seen, judgedAsNested(cmd));
  if (cmd.name === 'cd' || cmd.name === 'pushd') {
    const dir = cmd.argv.slice(1).find((w) => !w.text.startsWith('-'));
    if (!dir) return { ...scope, cwd: absolutePath('~', '/') };
    return { ...scope, cwd: folderAfter(dir, scope.cwd) };
  }
  add(
    walk,
    judgeCommand(cmd, {
      scope,
      rawText: walk.rawText,
      nested: (text, s) => nestedText(text, s, walk, "the command nests shells too deeply for sluice's guard"),
      readMessageFile: walk.readMessageFile,
    }),
  );
  if (['export', 'declare', 'typeset', 'local', 'readonly'].includes(cmd.name)) {
    const set = cmd.argv.slice(1).filter((w) => /^[A-Za-z_][A-Za-z0-9_]*=/.test(w.text));
    return { ...scope, bound: set.reduce((b, a) => bind({ ...scope, bound: b }, a.text.split('=')[0]!.replace(/\+$/, ''), [assignedValue(a)]), scope.bound) };
  }
  return scope;
}

const MAX_CALLS = 32;

/** A call of a function the command defined: its body again, with the call's words as `$1`, `$@`. */
function callFunction(body: ShellNode, argv: ShellWord[], scope: ShellScope, walk: Walk): ShellScope {
  if (walk.depth >= MAX_DEPTH || ++walk.seen.calls > MAX_CALLS) {
    add(walk, { verdict: 'ask', reason: "the command calls its functions more often than sluice's guard follows" });
    return scope;
  }
  const args = argv.slice(1);
  let bound = bind(scope, '@', args);
  bound = bind({ ...scope, bound }, '*', args);
  for (let k = 1; k <= 9; k++) bound = bind({ ...scope, bound }, String(k), args[k - 1] ? [args[k - 1]!] : []);
  add(walk, nestedDecision(body, { ...scope, bound }, walk));
  return scope;
}
