import parse, { type ShellNode } from '@ericcornelissen/bash-parser';
import { judgeCommand } from './command-rules.ts';
import { allow, stricter, type Decision } from './decision.ts';
import { checkWrite, type ShellScope } from './path-checks.ts';
import { absolutePath } from './resolve-path.ts';
import { commandParts, toWord, writesFile, type ShellWord } from './shell-words.ts';
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
  depth: number;
  decision: Decision;
}

export function judgeShell(command: string, scope: ShellScope): Decision {
  const walk: Walk = { parse, rawText: command, depth: 0, decision: allow };
  judgeText(command, scope, walk);
  return walk.decision;
}

function judgeText(text: string, scope: ShellScope, walk: Walk): void {
  let ast: ShellNode;
  try {
    ast = walk.parse(text, { mode: 'bash' });
  } catch {
    add(walk, { verdict: 'ask', reason: "the command uses shell syntax sluice's guard cannot read, so it cannot tell what it writes" });
    return;
  }
  node(ast, scope, walk);
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
    case 'For':
      node(n.do as ShellNode, scope, walk);
      return scope;
    case 'Case':
      for (const c of (n.cases as ShellNode[] | undefined) ?? []) node(c.body as ShellNode | undefined, scope, walk);
      return scope;
    case 'Function':
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

function simpleCommand(n: ShellNode, scope: ShellScope, walk: Walk): ShellScope {
  const parts = commandParts(n);
  substitutions([...parts.assignments, ...parts.words, ...parts.redirects.map((r) => r.file)], scope, walk);
  const vouching = [...parts.assignments, ...parts.words].find((w) => PERSON_ONLY_VARIABLE.test(w.text));
  if (vouching)
    add(walk, { verdict: 'deny', reason: `${vouching.text.split('=')[0]} carries a person's trust, grant or signing key: only the person sets it` });
  for (const r of parts.redirects) if (writesFile(r)) add(walk, checkWrite(r.file, scope, 'the redirection target'));
  if (parts.words.length === 0) return scope;
  const cmd = unwrapCommand(parts.words);
  if (!cmd) {
    add(walk, { verdict: 'ask', reason: `the program run is computed at run time (${JSON.stringify(parts.words[0]!.text)}); sluice cannot tell what it does` });
    return scope;
  }
  if (cmd.name === 'cd' || cmd.name === 'pushd') {
    const dir = cmd.argv.slice(1).find((w) => !w.text.startsWith('-'));
    if (!dir) return { ...scope, cwd: absolutePath('~', '/') };
    return {
      ...scope,
      cwd:
        dir.dynamic || scope.cwd === undefined
          ? dir.text.startsWith('/') && !dir.dynamic
            ? absolutePath(dir.text, '/')
            : undefined
          : absolutePath(dir.text, scope.cwd),
    };
  }
  add(
    walk,
    judgeCommand(cmd, {
      scope,
      rawText: walk.rawText,
      nested: (text, s) => {
        if (walk.depth >= MAX_DEPTH) return { verdict: 'ask', reason: "the command nests shells too deeply for sluice's guard" };
        const inner: Walk = { ...walk, depth: walk.depth + 1, decision: allow };
        judgeText(text, s, inner);
        return inner.decision;
      },
    }),
  );
  return scope;
}
