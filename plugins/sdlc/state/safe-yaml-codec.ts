import { isPair, isScalar, LineCounter, parseDocument, visit, type Node } from 'yaml';
import { CodecError, yamlCodec, type Codec } from '../../../core/index.ts';

/**
 * The kernel's YAML codec (alias-bomb cap, one-line syntax errors) plus two refusals for files
 * other tools and people write: a `__proto__` key (prototype pollution in any reader that merges
 * objects) and two keys of one map that name the same thing once read (`1:` and `'1':` would
 * silently overwrite each other, since phase ids are compared as strings).
 */
export const safeYamlCodec: Codec = {
  name: 'yaml',
  parse(text) {
    const value = yamlCodec.parse(text);
    const lineCounter = new LineCounter();
    const doc = parseDocument(text, { lineCounter, uniqueKeys: false });
    let problem: CodecError | undefined;
    visit(doc, {
      Map(_key, map, path) {
        const seen = new Set<string>();
        for (const pair of map.items) {
          const key = isScalar(pair.key) ? String(pair.key.value) : undefined;
          if (key === undefined) continue;
          const where = () => lineCounter.linePos((pair.key as Node).range?.[0] ?? 0);
          const field = [...dottedPath(path), key].join('.');
          if (key === '__proto__') problem = new CodecError(`key "__proto__" is not allowed (at ${field})`, where().line, where().col);
          else if (seen.has(key)) problem = new CodecError(`duplicate key ${JSON.stringify(key)} (at ${field}; quoted and bare keys are the same)`, where().line, where().col);
          if (problem) return visit.BREAK;
          seen.add(key);
        }
        return undefined;
      },
    });
    if (problem) throw problem;
    return value;
  },
  stringify: yamlCodec.stringify,
};

/** The map keys leading to a node, from the visitor's ancestor list (sequence positions are left out). */
function dottedPath(path: readonly unknown[]): string[] {
  return path.filter((node) => isPair(node) && isScalar(node.key)).map((pair) => String(((pair as { key: { value: unknown } }).key).value));
}
