import { CORE_SCHEMA, load as loadPlainYaml } from 'js-yaml';
import { checkDataShape, CodecError, splitFrontmatter, yamlCodec } from '../../../core/index.ts';

export type FrontmatterResult = { ok: true; data: Record<string, unknown> } | { ok: false; message: string };

/**
 * Parses a markdown file's frontmatter with the YAML library (so quoting, `#` inside strings,
 * anchors and escapes behave as YAML says), via the same codec as state files: alias expansion
 * is capped and duplicate keys are refused. Errors name the line in the markdown file.
 */
export function parseFrontmatter(text: string): FrontmatterResult {
  const block = splitFrontmatter(text);
  if (block === undefined) return { ok: false, message: 'no frontmatter (the file must start with a --- line)' };
  if (block === null) return { ok: false, message: 'frontmatter is not closed by a --- line' };
  if (block.yaml.trim() === '') return { ok: false, message: 'frontmatter is empty' };
  let value = readPlainFrontmatter(block.yaml);
  try {
    if (value === undefined) value = yamlCodec.parse(block.yaml);
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

/** Larger frontmatter is no longer the common case the fast reader is for. */
const PLAIN_MAX_CHARS = 8 * 1024;
/**
 * What the fast reader leaves to the state-file codec: anchors and aliases (alias bombs), tags,
 * directives (`%YAML 1.1` changes the schema), merge keys, and the number forms the two libraries
 * resolve differently (`0b101`, `+0x1`, `-0o7` are ints in js-yaml and strings in YAML 1.2; `+.5` the
 * reverse; `-0` is 0 in one and -0 in the other).
 */
const NOT_PLAIN = /[&*!<]|^%|(?:^|[\s[{,])(?:[-+]\.\d|[-+]0[xo]|0b[01]|-0(?![\d.e]))/im;
/**
 * Indented lines, block sequences and complex keys also go to the codec: js-yaml accepts some
 * mis-indented block structures that YAML 1.2 (and the `yaml` library) refuse.
 */
const NOT_FLAT = /^(?:[ \t]+\S|[-?])/m;

/**
 * Frontmatter in the form nearly every spec uses (one `key: value` per line, values quoted, plain or
 * in flow `[a, b]`), read by js-yaml's YAML 1.2 core schema: ten times faster than the `yaml`
 * library's document model, which a 10,000-spec backlog scan cannot afford. Anything else, and
 * anything js-yaml refuses, returns `undefined` and goes to the state-file codec, whose answer
 * (value or line-numbered error) stands. A test holds the two to the same values.
 */
function readPlainFrontmatter(yaml: string): unknown {
  if (yaml.length > PLAIN_MAX_CHARS || NOT_PLAIN.test(yaml) || NOT_FLAT.test(yaml)) return undefined;
  try {
    const value = loadPlainYaml(yaml, { schema: CORE_SCHEMA });
    checkDataShape(value);
    return value;
  } catch {
    return undefined;
  }
}
