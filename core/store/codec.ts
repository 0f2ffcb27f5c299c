import { parseDocument, stringify as stringifyYaml } from 'yaml';

/** How a data file is turned into a value and back. Parse errors carry a line for the one-line message. */
export interface Codec {
  readonly name: 'yaml' | 'json';
  parse(text: string): unknown;
  stringify(value: unknown): string;
}

export class CodecError extends Error {
  readonly line?: number;
  readonly column?: number;
  constructor(message: string, line?: number, column?: number) {
    super(line === undefined ? message : `${message} (line ${line}, column ${column ?? 1})`);
    this.name = 'CodecError';
    this.line = line;
    this.column = column;
  }
}

/** Alias expansion is capped: a few lines of anchors must not expand into gigabytes. */
export const MAX_YAML_ALIASES = 100;

export const yamlCodec: Codec = {
  name: 'yaml',
  parse(text) {
    if (text.trim() === '') throw new CodecError('file is empty');
    const doc = parseDocument(text, { uniqueKeys: true, prettyErrors: true });
    const first = doc.errors[0];
    if (first) {
      const pos = first.linePos?.[0];
      throw new CodecError(first.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, ''), pos?.line, pos?.col);
    }
    try {
      return doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
    } catch (error) {
      throw new CodecError(error instanceof Error ? error.message : String(error));
    }
  },
  stringify(value) {
    // No anchors on output: a value used twice is written twice, so other tools read it plainly.
    return stringifyYaml(value, { aliasDuplicateObjects: false, lineWidth: 0 });
  },
};

export const jsonCodec: Codec = {
  name: 'json',
  parse(text) {
    if (text.trim() === '') throw new CodecError('file is empty');
    try {
      return JSON.parse(text);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      const at = /position (\d+)/.exec(message);
      if (!at) throw new CodecError(message);
      const before = text.slice(0, Number(at[1]));
      const line = before.split('\n').length;
      throw new CodecError(message.replace(/ in JSON at position \d+.*$/, ''), line, Number(at[1]) - before.lastIndexOf('\n'));
    }
  },
  stringify(value) {
    return `${JSON.stringify(value, null, 2)}\n`;
  },
};

export function codecForPath(path: string): Codec {
  return /\.ya?ml$/i.test(path) ? yamlCodec : jsonCodec;
}
