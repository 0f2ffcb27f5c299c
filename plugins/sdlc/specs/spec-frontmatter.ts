import { CodecError, yamlCodec } from '../../../core/index.ts';

/** The YAML between the opening `---` line and the closing `---` (or `...`) line of a markdown file. */
export interface FrontmatterBlock {
  yaml: string;
  /** 1-based line of the first YAML line in the file (the line after `---`). */
  firstLine: number;
}

export type FrontmatterResult = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

const OPENING = /^\uFEFF?---[ \t]*\r?\n/;
const CLOSING = /^(?:---|\.\.\.)[ \t]*\r?$/m;

/**
 * Finds the frontmatter block. Returns `undefined` when the file does not open with `---`,
 * and `null` when it opens one but never closes it (within `text`).
 */
export function findFrontmatter(text: string): FrontmatterBlock | undefined | null {
  const open = OPENING.exec(text);
  if (!open) return undefined;
  const rest = text.slice(open[0].length);
  const close = CLOSING.exec(rest);
  if (!close) return null;
  return { yaml: rest.slice(0, close.index), firstLine: 2 };
}

/**
 * Parses a markdown file's frontmatter with the YAML library (so quoting, `#` inside strings,
 * anchors and escapes behave as YAML says), via the same codec as state files: alias expansion
 * is capped and duplicate keys are refused. Errors name the line in the markdown file.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const block = findFrontmatter(text);
  if (block === undefined) return { ok: false, message: 'no frontmatter (the file must start with a --- line)' };
  if (block === null) return { ok: false, message: 'frontmatter is not closed by a --- line' };
  if (block.yaml.trim() === '') return { ok: false, message: 'frontmatter is empty' };
  let value: unknown;
  try {
    value = yamlCodec.parse(block.yaml);
  } catch (error) {
    if (error instanceof CodecError) {
      const where = error.line === undefined ? '' : `line ${error.line + block.firstLine - 1}: `;
      const message = error.message.replace(/ \(line \d+, column \d+\)$/, '');
      return { ok: false, message: `${where}${message}` };
    }
    throw error;
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    return { ok: false, message: 'frontmatter is not a mapping of keys to values' };
  }
  return { ok: true, data: value as Record<string, unknown> };
}
