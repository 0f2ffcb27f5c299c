/** The YAML block at the top of a markdown file (skills, prompts, specs) and what follows it. */
export interface Frontmatter {
  /** The lines between the opening `---` and the closing `---` (or `...`) line. */
  yaml: string;
  /** 1-based line of the first YAML line in the file (the line after `---`). */
  firstLine: number;
  /** Everything after the closing line. */
  body: string;
}

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/**
 * Splits a markdown file into its frontmatter and body: the one reading of the format for every
 * workflow. A byte-order mark and spaces after the markers are allowed. Returns `undefined` when the
 * file does not open with `---`, and `null` when it opens a block but never closes it (within `text`).
 */
export function splitFrontmatter(text: string): Frontmatter | undefined | null {
  const open = OPENING.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  const close = CLOSING.exec(rest);
  if (!close) return null;
  const after = rest.slice(close.index + close[0].length);
  return { yaml: rest.slice(0, close.index), firstLine: 2, body: after.startsWith('\n') ? after.slice(1) : after };
}
