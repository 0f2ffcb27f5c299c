/**
 * bash-parser has no here-documents: it reads their bodies as commands, so a commit message with
 * `(`, `<` or an apostrophe (Claude Code's `git commit -m "$(cat <<'EOF' … EOF)"`, with its
 * `Co-Authored-By: … <noreply@…>` line) does not parse and every commit was asked about. A body
 * under a QUOTED delimiter (`<<'EOF'`, `<<"EOF"`, `<<\EOF`) is literal: the shell expands nothing
 * in it. Such bodies are swapped for one placeholder line before parsing, and a marker word is put
 * on the command that reads each one, so the guard can check that the parser saw the same
 * here-document and what reads it. Anything this small lexer is unsure of (arithmetic commands,
 * backticks around operators, a delimiter never found) leaves the text as it is.
 */
export const BODY_PLACEHOLDER = 'sluice_heredoc_body_';
export const CONSUMER_MARKER = 'sluice_heredoc_reader_';
export const DELIMITER = 'SLUICE_HEREDOC_END';

export interface HeredocRewrite {
  /** The command with each quoted body replaced (marker before its `<<`, placeholder as its body). */
  text: string;
  /** The original bodies, in the order of their placeholders. */
  bodies: string[];
}

interface Heredoc {
  quoted: boolean;
  dash: boolean;
  delimiter: string;
  /** Where the operator (`<<`, with any io number) and its delimiter word start and end. */
  opStart: number;
  opEnd: number;
}

interface Edit {
  start: number;
  end: number;
  text: string;
}

class Unsure extends Error {}

const META = /[\s;&|()<>]/;

export function rewriteQuotedHeredocs(src: string): HeredocRewrite | undefined {
  if (!src.includes('<<') || src.includes(BODY_PLACEHOLDER) || src.includes(CONSUMER_MARKER) || src.includes(DELIMITER)) return undefined;
  const lexer = new Lexer(src);
  try {
    const end = lexer.commands(0, undefined);
    if (end !== src.length) return undefined;
  } catch (e) {
    if (e instanceof Unsure) return undefined;
    throw e;
  }
  if (lexer.bodies.length === 0) return undefined;
  let text = '';
  let at = 0;
  for (const e of lexer.edits.sort((a, b) => a.start - b.start)) {
    text += src.slice(at, e.start) + e.text;
    at = e.end;
  }
  return { text: text + src.slice(at), bodies: lexer.bodies };
}

/** The `$(...)` and backquoted commands in a body as the shell would run them were it unquoted; undefined when unreadable. */
export function substitutionsIn(body: string): string[] | undefined {
  if (body.includes('$((')) return undefined;
  const lexer = new Lexer(body);
  const out: string[] = [];
  try {
    for (let i = 0; i < body.length; i++) {
      if (body[i] === '\\') i++;
      else if (body.startsWith('$(', i)) {
        const end = lexer.commands(i + 2, ')');
        out.push(body.slice(i + 2, end - 1));
      } else if (body[i] === '`') {
        const end = closingBackquote(body, i);
        out.push(body.slice(i + 1, end));
        i = end;
      }
    }
  } catch (e) {
    if (e instanceof Unsure) return undefined;
    throw e;
  }
  return out;
}

function closingBackquote(src: string, open: number): number {
  for (let i = open + 1; i < src.length; i++) {
    if (src[i] === '\\') i++;
    else if (src[i] === '`') return i;
  }
  throw new Unsure();
}

class Lexer {
  readonly edits: Edit[] = [];
  readonly bodies: string[] = [];
  constructor(private readonly src: string) {}

  /** A command context from `i` to its `closer` (`)` of `$(`), or the end; returns the index after it. */
  commands(start: number, closer: ')' | undefined): number {
    const s = this.src;
    let pending: Heredoc[] = [];
    let depth = 0;
    let i = start;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === "'") i = this.singleQuoted(i);
      else if (c === '"') i = this.doubleQuoted(i + 1);
      else if (c === '`') i = this.backquoted(i);
      else if (c === '$') i = this.dollar(i);
      else if (c === '#' && (i === start || /[\s;&|()<>]/.test(s[i - 1]!))) {
        while (i < s.length && s[i] !== '\n') i++;
      } else if (c === '(') {
        if (s[i + 1] === '(') throw new Unsure(); // an arithmetic command or nested subshells: not this lexer's job
        depth++;
        i++;
      } else if (c === ')') {
        if (depth > 0) {
          depth--;
          i++;
        } else if (closer === ')' && pending.length === 0) return i + 1;
        else throw new Unsure();
      } else if ((c === '<' || c === '>') && s[i + 1] === '(') i = this.commands(i + 2, ')');
      else if (c === '<' && s.startsWith('<<<', i)) i += 3;
      else if (c === '<' && s[i + 1] === '<') {
        const h = this.operator(i);
        pending.push(h);
        i = h.opEnd;
      } else if (c === '\n' && pending.length > 0) {
        i = this.readBodies(pending, i + 1);
        pending = [];
      } else i++;
    }
    if (closer !== undefined || pending.length > 0 || depth > 0) throw new Unsure();
    return i;
  }

  private singleQuoted(i: number): number {
    const end = this.src.indexOf("'", i + 1);
    if (end < 0) throw new Unsure();
    return end + 1;
  }

  /** From after an opening `"`; returns the index after its closing `"`. */
  private doubleQuoted(start: number): number {
    const s = this.src;
    let i = start;
    while (i < s.length) {
      const c = s[i]!;
      if (c === '\\') i += 2;
      else if (c === '"') return i + 1;
      else if (c === '`') i = this.backquoted(i);
      else if (c === '$') i = this.dollar(i);
      else i++;
    }
    throw new Unsure();
  }

  /** A backquoted command with an operator or a line break inside is left to the parser as it is. */
  private backquoted(i: number): number {
    const end = closingBackquote(this.src, i);
    const inner = this.src.slice(i + 1, end);
    if (inner.includes('<<') || inner.includes('\n')) throw new Unsure();
    return end + 1;
  }

  private dollar(i: number): number {
    const s = this.src;
    if (s.startsWith('$((', i)) {
      // Arithmetic: balanced parentheses with nothing quoted or substituted inside.
      let depth = 0;
      for (let j = i + 1; j < s.length; j++) {
        if (/['"`$\\\n]/.test(s[j]!)) throw new Unsure();
        if (s[j] === '(') depth++;
        else if (s[j] === ')' && --depth === 0) return j + 1;
      }
      throw new Unsure();
    }
    if (s[i + 1] === '(') return this.commands(i + 2, ')');
    if (s[i + 1] === '{') {
      const end = s.indexOf('}', i + 2);
      if (end < 0 || /['"`$\\\n{]/.test(s.slice(i + 2, end))) throw new Unsure();
      return end + 1;
    }
    return i + 1;
  }

  /** `<<` or `<<-` and its delimiter word. */
  private operator(at: number): Heredoc {
    const s = this.src;
    // An io number (`0<<EOF`) would be split from its operator by the marker word.
    if (at > 0 && /\d/.test(s[at - 1]!)) throw new Unsure();
    let i = at + 2;
    const dash = s[i] === '-';
    if (dash) i++;
    while (s[i] === ' ' || s[i] === '\t') i++;
    let delimiter = '';
    let quoted = false;
    while (i < s.length && !META.test(s[i]!)) {
      const c = s[i]!;
      if (c === "'" || c === '"') {
        const end = s.indexOf(c, i + 1);
        if (end < 0) throw new Unsure();
        const inner = s.slice(i + 1, end);
        if (c === '"' && /[$`\\]/.test(inner)) throw new Unsure();
        delimiter += inner;
        quoted = true;
        i = end + 1;
      } else if (c === '\\') {
        if (i + 1 >= s.length || s[i + 1] === '\n') throw new Unsure();
        delimiter += s[i + 1];
        quoted = true;
        i += 2;
      } else if (c === '$' || c === '`') throw new Unsure();
      else {
        delimiter += c;
        i++;
      }
    }
    if (delimiter === '' || delimiter.includes('\n')) throw new Unsure();
    return { quoted, dash, delimiter, opStart: at, opEnd: i };
  }

  /** The bodies of a line's here-documents, from `start`; returns the index after the last delimiter line. */
  private readBodies(pending: Heredoc[], start: number): number {
    const s = this.src;
    let i = start;
    for (const h of pending) {
      const bodyStart = i;
      for (;;) {
        if (i >= s.length) throw new Unsure(); // delimited by the end of input: left to the parser
        const nl = s.indexOf('\n', i);
        const lineEnd = nl < 0 ? s.length : nl;
        const line = s.slice(i, lineEnd);
        if ((h.dash ? line.replace(/^\t+/, '') : line) === h.delimiter) {
          if (h.quoted) {
            const k = this.bodies.length;
            this.bodies.push(s.slice(bodyStart, i));
            this.edits.push({ start: h.opStart, end: h.opEnd, text: ` ${CONSUMER_MARKER}${k} <<'${DELIMITER}'` });
            this.edits.push({ start: bodyStart, end: lineEnd, text: `${BODY_PLACEHOLDER}${k}\n${DELIMITER}` });
          }
          i = nl < 0 ? s.length : nl + 1;
          break;
        }
        i = lineEnd + 1;
      }
    }
    return i;
  }
}
