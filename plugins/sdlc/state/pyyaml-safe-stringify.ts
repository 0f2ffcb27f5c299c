import { yamlLibrary } from '../../../core/index.ts';

/**
 * YAML that PyYAML (YAML 1.1, what the reference's Python scripts use) reads back as the same data.
 * The yaml library quotes strings that YAML 1.2 would read as something else, but leaves
 * `2026-03-20T10:00:00Z`, `yes`, `on` or `1:20` plain: PyYAML turns those into a datetime, a boolean
 * or a number, and the reference's generate_status.py then crashes on `len(datetime)`. Such strings
 * are written double-quoted, as the reference's own template writes its timestamps.
 */
export function stringifyForPyYaml(value: unknown): string {
  const { Document, visit } = yamlLibrary();
  const doc = new Document(value, { aliasDuplicateObjects: false });
  visit(doc, {
    Scalar(_key, node) {
      if (typeof node.value === 'string' && readsAsOtherThanString(node.value)) node.type = 'QUOTE_DOUBLE';
    },
  });
  return doc.toString({ lineWidth: 0 });
}

/** Plain scalars YAML 1.1 resolves to non-strings start with a digit, a sign, a dot, `~`, `<`, `=` or a letter of yes/no/on/off/true/false/null. */
const MAYBE_TYPED = /^[-+.0-9~<=yYnNoOtTfF]/;

function readsAsOtherThanString(s: string): boolean {
  if (!MAYBE_TYPED.test(s) || s.length > 64 || /[\n#]|: /.test(s)) return false;
  try {
    return typeof yamlLibrary().parse(`v: ${s}`, { version: '1.1', schema: 'yaml-1.1' })?.v !== 'string';
  } catch {
    return false;
  }
}
