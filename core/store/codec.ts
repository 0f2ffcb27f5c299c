import { checkDataShape } from './data-shape.ts';
import { CodecError } from './codec-error.ts';
import { jsonErrorOffset } from './json-error-offset.ts';
import { parseYamlDocument, yamlToData } from './yaml-document.ts';
import { yamlLibrary } from './yaml-library.ts';

export { CodecError } from './codec-error.ts';
export { MAX_YAML_ALIASES } from './yaml-document.ts';
export { MAX_DATA_DEPTH } from './data-shape.ts';

/** How a data file is turned into a value and back. Parse errors carry a line for the one-line message. */
export interface Codec {
  readonly name: 'yaml' | 'json';
  parse(text: string): unknown;
  stringify(value: unknown): string;
}

export const yamlCodec: Codec = {
  name: 'yaml',
  parse(text) {
    if (text.trim() === '') throw new CodecError('file is empty');
    const doc = parseYamlDocument(text, { uniqueKeys: true, lineCounter: new (yamlLibrary().LineCounter)() });
    const first = doc.errors[0];
    if (first) {
      const pos = first.linePos?.[0];
      throw new CodecError(first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''), pos?.line, pos?.col);
    }
    return yamlToData(doc);
  },
  stringify(value) {
    // No anchors on output: a value used twice is written twice, so other tools read it plainly.
    return yamlLibrary().stringify(value, { aliasDuplicateObjects: false, lineWidth: 0 });
  },
};

export const jsonCodec: Codec = {
  name: 'json',
  parse(text) {
    if (text.trim() === '') throw new CodecError('file is empty');
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      // V8 gives the position for some errors only; for the others, find it ourselves.
      const at = Number(/position (\d+)/.exec(message)?.[1] ?? jsonErrorOffset(text));
      const before = text.slice(0, at);
      const line = before.split('\n').length;
      // `Unexpected token 'x', "<a quote of the file>" is not valid JSON`: the quote spans lines; the position says more.
      const what = message
        .replace(/ (?:in JSON )?at position \d+.*$/s, '')
        .replace(/, (?:\.\.\.)?"[\s\S]*"(?:\.\.\.)? is not valid JSON$/, '')
        .replace(/[\u0000-\u001f]/g, (c) => JSON.stringify(c).slice(1, -1));
      throw new CodecError(what, line, at - before.lastIndexOf('\n'));
    }
    checkDataShape(value, { finite: true });
    return value;
  },
  stringify(value) {
    // Never write what would read back differently (Infinity becomes null).
    checkDataShape(value, { finite: true });
    return `${JSON.stringify(value, null, 2)}\n`;
  },
};

export function codecForPath(path: string): Codec {
  return /\.ya?ml$/i.test(path) ? yamlCodec : jsonCodec;
}
