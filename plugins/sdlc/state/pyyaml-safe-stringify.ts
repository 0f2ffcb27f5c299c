import { yamlLibrary } from '../../../core/index.ts';

/**
 * YAML that PyYAML (YAML 1.1, what the reference's Python scripts use) reads back as the same data.
 * The yaml library quotes strings that YAML 1.2 would read as something else, but leaves
 * `2026-03-20T10:00:00Z`, `yes`, `on` or `1:20` plain: PyYAML turns those into a datetime, a boolean
 * or a number, and the reference's generate_status.py then crashes on `len(datetime)`. Such strings
 * are written double-quoted, as the reference's own template writes its timestamps.
 */
export function stringifyForPyYaml(value: unknown): string {
  const history = (value as { history?: unknown } | null)?.history;
  if (!Array.isArray(history) || history.length <= HISTORY_CHUNK) return stringifyWhole(value);
  // A long history is written a chunk at a time, so no one syntax tree holds it all; the text is the same.
  const head = stringifyWhole({ ...(value as object), history: [] });
  const at = head.startsWith('history: []\n') ? 0 : head.indexOf('\nhistory: []\n') + 1;
  if (at < 0 || (at === 0 && !head.startsWith('history: []\n'))) return stringifyWhole(value);
  const parts = [head.slice(0, at), 'history:\n'];
  for (let i = 0; i < history.length; i += HISTORY_CHUNK) {
    const chunk = stringifyWhole(history.slice(i, i + HISTORY_CHUNK));
    parts.push(chunk.replace(/^(?=.)/gm, '  '));
  }
  parts.push(head.slice(at + 'history: []\n'.length));
  return parts.join('');
}

const HISTORY_CHUNK = 256;

export function stringifyWhole(value: unknown): string {
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

/** What the 1.1 schema surely types, answered without a parse: sluice's own timestamps, and phase ids. */
const SURELY_TYPED = /^(?:\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?Z|0|[1-9]\d{0,8})$/;

function readsAsOtherThanString(s: string): boolean {
  if (!MAYBE_TYPED.test(s) || s.length > 64 || /[\n#]|: /.test(s)) return false;
  if (SURELY_TYPED.test(s)) return true;
  // Keys (`from`, `to`, `failed`) and values repeat in every history entry: each is parsed once.
  let known = answered.get(s);
  if (known === undefined) {
    try {
      known = typeof yamlLibrary().parse(`v: ${s}`, { version: '1.1', schema: 'yaml-1.1' })?.v !== 'string';
    } catch {
      known = false;
    }
    if (answered.size >= 4096) answered.clear();
    answered.set(s, known);
  }
  return known;
}

const answered = new Map<string, boolean>();
