import * as v from 'valibot';
import type { Document, LineCounter } from 'yaml';
import { CodecError, issueMessage, parseYamlDocument, yamlCodec, yamlLibrary } from '../../../core/index.ts';

/** One problem in one file: where (the YAML path and line) and what. */
export interface Violation {
  file: string;
  /** Dotted YAML path (`quality.coverage_minimum`, `gates.3.check_type`); empty for the whole file. */
  path: string;
  line?: number;
  column?: number;
  message: string;
}

/** `sluice profile validate --json`. */
export interface ProfileValidation {
  valid: boolean;
  profile: string;
  /** Every file read, profile first. */
  checked: string[];
  violations: Violation[];
}

export interface YamlCheck<T> {
  violations: Violation[];
  /** The validated value when the file parsed and matched the schema. */
  value?: T;
  /** The parsed value, valid or not, when the file is syntactically sound (for checks beyond the schema). */
  raw?: unknown;
  /** Line and column of a dotted path in this file (for checks made after the schema). */
  locate(path: string): { line?: number; column?: number };
}

/** Line and column of the node at `path`, or of its nearest existing ancestor (a missing key points at its map). */
function position(doc: Document, lines: LineCounter, path: readonly (string | number)[]): { line?: number; column?: number } {
  const { isNode } = yamlLibrary();
  for (let n = path.length; n >= 0; n--) {
    const node = n === 0 ? doc.contents : doc.getIn(path.slice(0, n), true);
    if (isNode(node) && node.range) {
      const pos = lines.linePos(node.range[0]);
      return { line: pos.line, column: pos.col };
    }
  }
  return {};
}

/**
 * Every problem of a YAML data file, each once: every syntax error and duplicate key the YAML
 * library finds, every `__proto__` key, then every schema issue valibot reports (all of them, not
 * the first), each with its dotted path and the line it points at.
 */
export interface YamlCheckOptions {
  /**
   * Whether messages may quote short values from the file (true for files inside the project).
   * Without it nothing of the file's content is echoed: positions, key paths and sluice's own words only.
   */
  quote?: boolean;
}

export function yamlViolations<S extends v.GenericSchema>(
  text: string,
  schema: S,
  file: string,
  o: YamlCheckOptions = { quote: true },
): YamlCheck<v.InferOutput<S>> {
  const quote = o.quote ?? true;
  const { isPair, isScalar, LineCounter, visit } = yamlLibrary();
  const lines = new LineCounter();
  let doc: Document;
  try {
    doc = parseYamlDocument(text, { lineCounter: lines, uniqueKeys: true });
  } catch (error) {
    // Nesting too deep to build a document: the one violation, with nothing to locate.
    if (!(error instanceof CodecError)) throw error;
    return {
      violations: [{ file, path: '', line: error.line, column: error.column, message: error.message.replace(/ \(line \d+, column \d+\)$/, '') }],
      locate: () => ({}),
    };
  }
  const out: Violation[] = [];
  const locate = (dotted: string) => position(doc, lines, dotted === '' ? [] : dotted.split('.').map((k) => (/^\d+$/.test(k) ? Number(k) : k)));
  const seen = new Set<string>();
  const add = (x: Violation) => {
    const key = `${x.path}\0${x.line ?? ''}\0${x.message}`;
    if (!seen.has(key)) out.push(x), seen.add(key);
  };
  for (const e of doc.errors) {
    const pos = e.linePos?.[0];
    // The parser's words may quote an alias or tag from the file: from outside the project, say only where.
    add({
      file,
      path: '',
      line: pos?.line,
      column: pos?.col,
      message: quote ? e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '') : 'YAML syntax error',
    });
  }
  if (text.trim() === '') add({ file, path: '', message: 'file is empty' });
  if (out.length) return { violations: out, locate };
  visit(doc, {
    Pair(_key, pair, path) {
      if (isScalar(pair.key) && pair.key.value === '__proto__') {
        const keys = path.filter(isPair).map((p) => (isScalar(p.key) ? String(p.key.value) : '?'));
        const pos = pair.key.range ? lines.linePos(pair.key.range[0]) : undefined;
        add({ file, path: [...keys, '__proto__'].join('.'), line: pos?.line, column: pos?.col, message: 'key "__proto__" is not allowed' });
      }
    },
  });
  let value: unknown;
  try {
    // The kernel's codec: the same alias-expansion cap as every state and config file.
    value = yamlCodec.parse(text);
  } catch (error) {
    add({ file, path: '', message: (error as Error).message });
    return { violations: out, locate };
  }
  // A file that is not a YAML mapping (a .env, a credential file, prose) is not this format at all: refuse it whole, echoing nothing.
  if (value === null || typeof value !== 'object' || Array.isArray(value)) {
    add({ file, path: '', line: 1, column: 1, message: `not a YAML mapping (${describeKind(value)}), so not this kind of file; nothing of it is shown` });
    return { violations: out, locate };
  }
  const result = v.safeParse(schema, value);
  if (!result.success) {
    for (const issue of result.issues) {
      const keys = (issue.path ?? []).map((p) => p.key as string | number);
      add({ file, path: keys.join('.'), ...position(doc, lines, keys), message: describeIssue(issue, keys, quote) });
    }
  }
  return out.length || !result.success ? { violations: out, raw: value, locate } : { violations: out, raw: value, value: result.output, locate };
}

/** valibot says `Invalid key: Expected "framework" but received undefined` for a missing key; say it plainly. */
function describeIssue(issue: v.BaseIssue<unknown>, keys: readonly (string | number)[], quote: boolean): string {
  if (issue.kind === 'schema' && issue.input === undefined && issue.type !== 'undefined' && keys.length > 0 && /^Invalid key/.test(issue.message)) {
    return `required key ${JSON.stringify(String(keys[keys.length - 1]))} is missing`;
  }
  return issueMessage(issue, quote);
}

const describeKind = (value: unknown) => (Array.isArray(value) ? 'a list' : value === null ? 'empty' : `a ${typeof value}`);
