import type { ShellNode } from '@ericcornelissen/bash-parser';

/** One word of a parsed command: its text after quote removal, and whether the shell computes it. */
export interface ShellWord {
  text: string;
  /** Has an expansion ($VAR, $(...), `...`, $((...))) or glob/brace characters: its value is only known at run time. */
  dynamic: boolean;
  /** Command substitutions inside the word, as parsed scripts (undefined when the inner text did not parse). */
  substitutions: (ShellNode | undefined)[];
  /** Its plain `$NAME` / `${NAME}` / `$1` / `$@` expansions, where they sit in `text` (end inclusive). */
  params?: WordParam[];
  /** Has an expansion other than a plain parameter (`$(...)`, `${X:-y}`, `$((...))`): never known before it runs. */
  computed?: boolean;
}

export interface WordParam {
  name: string;
  start: number;
  end: number;
}

export interface ShellRedirect {
  op: string;
  file: ShellWord;
}

const GLOB = /[*?[{]/;

export function toWord(node: ShellNode): ShellWord {
  // bash-parser copies a substitution into the next command's first word with a negative offset
  // (`echo \`date\`<newline>cat x` reads `cat` as computed): those lie before the word and are not its own.
  const expansions = ((node.expansion as ShellNode[] | undefined) ?? []).filter((e) => ((e.loc as { start?: number } | undefined)?.start ?? 0) >= 0);
  const text = String(node.text ?? '');
  const plain = (e: ShellNode) => e.type === 'ParameterExpansion' && e.op === undefined && e.parameter !== undefined;
  const params = expansions.filter(plain).map((e) => {
    const loc = e.loc as { start: number; end: number };
    return { name: String(e.parameter), start: loc.start, end: loc.end };
  });
  return {
    text,
    dynamic: expansions.length > 0 || GLOB.test(text),
    substitutions: expansions.filter((e) => e.type === 'CommandExpansion').map((e) => e.commandAST as ShellNode | undefined),
    ...(params.length > 0 ? { params } : {}),
    ...(expansions.some((e) => !plain(e)) ? { computed: true } : {}),
  };
}

/** The words and redirections of a simple command, in order, with its leading assignments apart. */
export function commandParts(node: ShellNode): { assignments: ShellWord[]; words: ShellWord[]; redirects: ShellRedirect[]; heredoc: boolean } {
  const assignments: ShellWord[] = [];
  const words: ShellWord[] = [];
  const redirects: ShellRedirect[] = [];
  let heredoc = false;
  const take = (item: ShellNode) => {
    if (item.type === 'Redirect') redirects.push({ op: String((item.op as ShellNode).text), file: toWord(item.file as ShellNode) });
    else if (item.type === 'AssignmentWord') assignments.push(toWord(item));
    else if (item.type === 'dless' || item.type === 'dlessdash') heredoc = true;
    else words.push(toWord(item));
  };
  for (const item of (node.prefix as ShellNode[] | undefined) ?? []) take(item);
  if (node.name) take(node.name as ShellNode);
  for (const item of (node.suffix as ShellNode[] | undefined) ?? []) take(item);
  return { assignments, words, redirects, heredoc };
}

/** Redirections that write their file (`>`, `>>`, `>|`, `<>`, `&>`, `>&` onto a name). */
export function writesFile(r: ShellRedirect): boolean {
  if (r.op === '>&' || r.op === '&>' || r.op === '&>>') return !/^(\d+|-)$/.test(r.file.text);
  return r.op === '>' || r.op === '>>' || r.op === '>|' || r.op === '<>';
}
