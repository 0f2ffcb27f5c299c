import type { CST, Document, DocumentOptions, LineCounter, ParseOptions, SchemaOptions, YAMLParseError } from 'yaml';
import { CodecError } from './codec-error.ts';
import { checkDataShape, MAX_DATA_DEPTH } from './data-shape.ts';
import { yamlLibrary } from './yaml-library.ts';

/** Alias expansion is capped: a few lines of anchors must not expand into gigabytes. */
export const MAX_YAML_ALIASES = 100;

/** The syntax tree may open a few tokens (document, pair, scalar) beyond the data's own nesting. */
const MAX_OPEN_TOKENS = MAX_DATA_DEPTH + 8;

export type YamlDocumentOptions = Omit<ParseOptions, 'prettyErrors'> & DocumentOptions & SchemaOptions & { lineCounter?: LineCounter };

/**
 * `parseDocument` from the yaml library, with nesting bounded while the syntax tree is built:
 * turning the tree into a document recurses once per level, so a few hundred `[` overflow the stack
 * (a second such parse in one process has crashed V8 outright), and building a tree of millions of
 * levels takes minutes. The parser's open-token stack is watched lexeme by lexeme, so a deep file is
 * refused after reading only its first levels. Duplicate keys are found with one set per map: the
 * library compares each key with every earlier one, and 20,000 keys took 8 s. Errors carry `linePos`
 * when a line counter is given, as with the library's `prettyErrors`.
 */
export function parseYamlDocument(text: string, options: YamlDocumentOptions = {}): Document.Parsed {
  const lines = options.lineCounter;
  const { Composer, Lexer, Parser, YAMLParseError } = yamlLibrary();
  const parser = new Parser(lines?.addNewLine);
  lines?.addNewLine(0);
  const tokens: CST.Token[] = [];
  for (const lexeme of new Lexer().lex(text)) {
    for (const token of parser.next(lexeme)) tokens.push(token);
    if (parser.stack.length > MAX_OPEN_TOKENS) {
      const pos = lines?.linePos(parser.offset);
      throw new CodecError(`data is nested more than ${MAX_DATA_DEPTH} levels deep`, pos?.line, pos?.col);
    }
  }
  for (const token of parser.end()) tokens.push(token);

  // The library's own check unless the caller brought a comparison of its own.
  const ownCheck = options.uniqueKeys === undefined || options.uniqueKeys === true;
  // Plain data only: `!!binary`, `!!timestamp`, `!!set`, `!!omap` would make a Uint8Array, Date, Set or
  // Map, which a rewrite of the file silently turns into an array, a string, a list and a map.
  const composeOptions = { resolveKnownTags: false, ...options, ...(ownCheck ? { uniqueKeys: false } : {}) };
  let doc: Document.Parsed | undefined;
  for (const next of new Composer(composeOptions).compose(tokens, true, text.length)) {
    if (doc) {
      doc.errors.push(
        new YAMLParseError([next.range[0], next.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents; please use YAML.parseAllDocuments()'),
      );
      break;
    }
    doc = next;
  }
  if (ownCheck) {
    doc!.errors.push(...duplicateKeys(doc!));
    doc!.errors.sort((a, b) => a.pos[0] - b.pos[0]);
  }
  if (lines) for (const e of [...doc!.errors, ...doc!.warnings]) e.linePos = [lines.linePos(e.pos[0]), lines.linePos(e.pos[1])];
  return doc!;
}

/** The plain value of a parsed document: aliases capped, then depth and cycles checked. */
export function yamlToData(doc: Document.Parsed): unknown {
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: MAX_YAML_ALIASES });
  } catch (error) {
    throw new CodecError(error instanceof Error ? error.message : String(error));
  }
  checkDataShape(value, { shared: true });
  return value;
}

/** The library's rule (scalar keys with the same value, or the same node) in linear time. */
function duplicateKeys(doc: Document.Parsed): YAMLParseError[] {
  const { isScalar, visit, YAMLParseError } = yamlLibrary();
  const errors: YAMLParseError[] = [];
  visit(doc, {
    Map(_key, map) {
      const seen = new Set<unknown>();
      for (const { key } of map.items) {
        const id = isScalar(key) ? key.value : key;
        if (!seen.has(id)) seen.add(id);
        else {
          const at = (key as { range?: [number, number, number] } | null)?.range ?? map.range ?? [0, 0, 0];
          errors.push(new YAMLParseError([at[0], at[1]], 'DUPLICATE_KEY', 'Map keys must be unique'));
        }
      }
    },
  });
  return errors;
}
