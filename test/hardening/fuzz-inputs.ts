import fc from 'fast-check';
import { parse as parseYaml, stringify as stringifyYaml } from 'yaml';

/**
 * What the file readers are fed: random text and bytes, mutations of valid files (truncation,
 * byte flips, deleted or duplicated lines, wrong scalar types, keys renamed to `__proto__` and
 * friends), structured junk serialized in the reader's format, and special shapes (alias bombs,
 * 100 MB files, 10^5 levels of brackets, invalid UTF-8, BOMs, CRLF).
 */
export type Format = 'yaml' | 'json' | 'markdown';

/** `SLUICE_SOAK=10` multiplies every case count (`npm run soak`); a fraction shortens the run (the bench). */
export const SOAK = Number(process.env.SLUICE_SOAK) > 0 ? Number(process.env.SLUICE_SOAK) : 1;
export const scaled = (n: number) => Math.max(1, Math.round(n * SOAK));

const encoder = new TextEncoder();
const bytesOf = (text: string) => encoder.encode(text);

export const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

const WRONG_YAML = [
  '[]',
  '{}',
  'null',
  '~',
  '-1',
  '1e309',
  '.nan',
  '-.inf',
  '"x"',
  'true',
  '0x1F',
  '2026-13-45T99:99:99Z',
  "''",
  '!!binary aGVsbG8=',
  '!!js/function f',
  '*missing',
  '&a',
  '|',
  '>-',
  'x'.repeat(3000),
  '[[[[',
  '{a: 1, a: 2}',
  '"\\0"',
  '{__proto__: {polluted: 1}}',
];
const WRONG_JSON = [
  '[]',
  '{}',
  'null',
  '-1',
  '1e309',
  '"x"',
  'true',
  '0',
  '1.5',
  '"2026-13-45T99:99:99Z"',
  '""',
  '"\\u0000"',
  '{"__proto__": {"polluted": 1}}',
  '[null]',
  '99999999999999999999',
  '"../../../etc/passwd"',
  '-0',
];

/** One edit of a text, chosen by fast-check; positions are fractions so they fit any length. */
type Edit =
  | { op: 'truncate'; at: number }
  | { op: 'flip'; at: number; xor: number }
  | { op: 'delete-line' | 'duplicate-line' | 'indent' | 'dedent'; line: number }
  | { op: 'swap-lines'; line: number; other: number }
  | { op: 'insert'; at: number; text: string }
  | { op: 'value'; line: number; value: string }
  | { op: 'key'; line: number; key: string }
  | { op: 'crlf' | 'bom' | 'tabs' };

const frac = fc.double({ min: 0, max: 1, noNaN: true, maxExcluded: true });

function editArb(format: Format): fc.Arbitrary<Edit> {
  return fc.oneof(
    fc.record({ op: fc.constant('truncate' as const), at: frac }),
    fc.record({ op: fc.constant('flip' as const), at: frac, xor: fc.integer({ min: 1, max: 255 }) }),
    fc.record({ op: fc.constantFrom('delete-line' as const, 'duplicate-line' as const, 'indent' as const, 'dedent' as const), line: frac }),
    fc.record({ op: fc.constant('swap-lines' as const), line: frac, other: frac }),
    fc.record({
      op: fc.constant('insert' as const),
      at: frac,
      text: fc.oneof(fc.string({ maxLength: 20 }), fc.constantFrom('\n', ': ', '- ', '"', '[', '{', '#', '---\n', '```\n', '\0', '\uFFFD', '\u2028')),
    }),
    fc.record({ op: fc.constant('value' as const), line: frac, value: fc.constantFrom(...(format === 'json' ? WRONG_JSON : WRONG_YAML)) }),
    fc.record({ op: fc.constant('key' as const), line: frac, key: fc.constantFrom(...PROTO_KEYS, 'toString', 'hasOwnProperty', '', '1', 'null') }),
    fc.record({ op: fc.constantFrom('crlf' as const, 'bom' as const, 'tabs' as const) }),
  );
}

const pick = <T>(list: readonly T[], f: number) => list[Math.min(list.length - 1, Math.floor(f * list.length))];

function applyEdit(text: string, e: Edit, format: Format): string | Uint8Array {
  const lines = text.split('\n');
  const lineAt = (f: number) => Math.min(lines.length - 1, Math.floor(f * lines.length));
  switch (e.op) {
    case 'truncate':
      return text.slice(0, Math.floor(e.at * text.length));
    case 'flip': {
      const bytes = bytesOf(text);
      if (bytes.length > 0) bytes[Math.floor(e.at * bytes.length)] ^= e.xor;
      return bytes;
    }
    case 'delete-line':
      lines.splice(lineAt(e.line), 1);
      return lines.join('\n');
    case 'duplicate-line': {
      const i = lineAt(e.line);
      lines.splice(i, 0, lines[i]);
      return lines.join('\n');
    }
    case 'indent':
    case 'dedent': {
      const i = lineAt(e.line);
      lines[i] = e.op === 'indent' ? `  ${lines[i]}` : lines[i].replace(/^ {1,2}/, '');
      return lines.join('\n');
    }
    case 'swap-lines': {
      const [i, j] = [lineAt(e.line), lineAt(e.other)];
      [lines[i], lines[j]] = [lines[j], lines[i]];
      return lines.join('\n');
    }
    case 'insert': {
      const at = Math.floor(e.at * text.length);
      return text.slice(0, at) + e.text + text.slice(at);
    }
    case 'value': {
      const i = lineAt(e.line);
      lines[i] =
        format === 'json'
          ? lines[i].replace(/("[^"]*"\s*:\s*)("(?:[^"\\]|\\.)*"|[^,}\]]+)/, `$1${e.value}`)
          : lines[i].replace(/^(\s*(?:- )?[^:#\s][^:#]*:)(?:\s.*)?$/, `$1 ${e.value}`);
      return lines.join('\n');
    }
    case 'key': {
      const i = lineAt(e.line);
      lines[i] = format === 'json' ? lines[i].replace(/"[^"]*"(\s*:)/, `"${e.key}"$1`) : lines[i].replace(/^(\s*(?:- )?)[^:#\s][^:#]*:/, `$1${e.key}:`);
      return lines.join('\n');
    }
    case 'crlf':
      return text.replace(/\r?\n/g, '\r\n');
    case 'bom':
      return `\uFEFF${text}`;
    case 'tabs':
      return text.replace(/^( {2})+/gm, (m) => '\t'.repeat(m.length / 2));
  }
}

function applyEdits(seed: string, edits: Edit[], format: Format): Uint8Array {
  let current: string | Uint8Array = seed;
  for (const e of edits) {
    // A byte-level edit ends the chain: later edits would have to decode invalid UTF-8.
    if (current instanceof Uint8Array) break;
    current = applyEdit(current, e, format);
  }
  return typeof current === 'string' ? bytesOf(current) : current;
}

/** Structured mutation: walk into the parsed seed along `path` choices and change what is there. */
type Change = { op: 'replace'; value: unknown } | { op: 'delete' } | { op: 'proto-key'; key: string } | { op: 'wrap' } | { op: 'to-string' };

function mutateValue(root: unknown, path: number[], change: Change): unknown {
  const copy = structuredClone(root);
  let parent: Record<string, unknown> | unknown[] | undefined;
  let key: string | number | undefined;
  let node: unknown = copy;
  for (const choice of path) {
    if (node === null || typeof node !== 'object') break;
    const keys = Array.isArray(node) ? node.map((_, i) => i) : Object.keys(node);
    if (keys.length === 0) break;
    parent = node as Record<string, unknown>;
    key = keys[choice % keys.length];
    node = (node as Record<string | number, unknown>)[key];
  }
  if (parent === undefined || key === undefined) return change.op === 'replace' ? change.value : copy;
  const p = parent as Record<string | number, unknown>;
  switch (change.op) {
    case 'replace':
      p[key] = change.value;
      break;
    case 'delete':
      if (Array.isArray(parent)) parent.splice(Number(key), 1);
      else delete p[key];
      break;
    case 'proto-key':
      if (!Array.isArray(parent)) {
        delete p[key];
        // An own enumerable `__proto__` property, as JSON.parse makes it.
        Object.defineProperty(parent, change.key, { value: node, enumerable: true, writable: true, configurable: true });
      }
      break;
    case 'wrap':
      p[key] = [node];
      break;
    case 'to-string':
      p[key] = typeof node === 'object' ? JSON.stringify(node) : String(node);
      break;
  }
  return copy;
}

const changeArb: fc.Arbitrary<Change> = fc.oneof(
  { weight: 3, arbitrary: fc.record({ op: fc.constant('replace' as const), value: fc.jsonValue({ maxDepth: 3 }) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('delete' as const) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('proto-key' as const), key: fc.constantFrom(...PROTO_KEYS) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constantFrom('wrap' as const, 'to-string' as const) }) },
);

function serialize(value: unknown, format: Format): string {
  if (format === 'json') return JSON.stringify(value, null, 2) ?? 'null';
  return stringifyYaml(value, { aliasDuplicateObjects: false });
}

/** Characters that make up each format's syntax, so random text often gets past the first byte. */
const SYNTAX: Record<Format, string[]> = {
  yaml: [...':- \n[]{},&*!|>#"\'?%@`~\t', 'a', 'b', '1', '0', '.', 'key: ', '- ', '  ', '<<: ', '---', '...', 'null', 'true'],
  json: [...'{}[]:,"\\ \n.-+eE0123456789', 'true', 'null', '"a"', '"__proto__"'],
  markdown: [...'#-*_`>|[]()! \n\t:', 'x', '1.', '## ', '```', '- [ ] ', '- [x] ', '| a | b |', '---'],
};

export interface InputOptions {
  format: Format;
  /** Valid files of the format. */
  seeds: readonly string[];
  /** Lines typical of the format (markdown readers): random documents are built from them. */
  vocabulary?: readonly string[];
}

/** The mixed stream of inputs one reader is fed, as bytes. */
export function fuzzInputs(o: InputOptions): fc.Arbitrary<Uint8Array> {
  const { format, seeds } = o;
  const parsed = format === 'markdown' ? [] : seeds.map((s) => parseYaml(s) as unknown);
  const seed = fc.constantFrom(...seeds);
  const mutated = fc.tuple(seed, fc.array(editArb(format), { minLength: 1, maxLength: 4 })).map(([s, edits]) => applyEdits(s, edits, format));
  const randomText = fc
    .oneof(
      fc.string({ maxLength: 200 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.array(fc.constantFrom(...SYNTAX[format]), { maxLength: 80 }).map((parts) => parts.join('')),
    )
    .map(bytesOf);
  const randomBytes = fc.uint8Array({ maxLength: 200 });
  const junk = fc.jsonValue({ maxDepth: 4 }).map((v) => bytesOf(serialize(v, format)));
  const arbs: { weight: number; arbitrary: fc.Arbitrary<Uint8Array> }[] = [
    { weight: 6, arbitrary: mutated },
    { weight: 1, arbitrary: randomText },
    { weight: 1, arbitrary: randomBytes },
  ];
  if (parsed.length > 0) {
    const structured = fc
      .tuple(fc.nat({ max: parsed.length - 1 }), fc.array(fc.nat(), { minLength: 1, maxLength: 6 }), fc.array(changeArb, { minLength: 1, maxLength: 3 }))
      .map(([i, path, changes]) =>
        bytesOf(
          serialize(
            changes.reduce((v, c, n) => mutateValue(v, path.slice(n), c), parsed[i]),
            format,
          ),
        ),
      );
    arbs.push({ weight: 5, arbitrary: structured }, { weight: 1, arbitrary: junk });
  }
  if (o.vocabulary) {
    const lines = [...o.vocabulary, ...seeds.flatMap((s) => s.split('\n'))];
    const doc = fc.tuple(
      fc.array(fc.oneof({ weight: 5, arbitrary: fc.constantFrom(...lines) }, { weight: 1, arbitrary: fc.string({ maxLength: 30 }) }), { maxLength: 40 }),
      fc.constantFrom('\n', '\r\n', '\n\n'),
    );
    arbs.push({ weight: 5, arbitrary: doc.map(([ls, nl]) => bytesOf(ls.join(nl))) });
  }
  return fc.oneof(...arbs);
}

/** A special input: bytes in memory, or a sparse file of `size` bytes starting with `head`. */
export type SpecialShape = ({ name: string; bytes: Uint8Array } | { name: string; head: Uint8Array; size: number }) & { fromSeed?: boolean };

const nested = (open: string, close: string, n: number) => open.repeat(n) + close.repeat(n);
const concat = (...parts: (Uint8Array | number[])[]) => {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) out.set(p, at), (at += p.length);
  return out;
};

const ALIAS_BOMB = [
  'a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]',
  ...'bcdefghi'.split('').map((k, i) => `${k}: &${k} [${Array(9).fill(`*${'abcdefghi'[i]}`).join(',')}]`),
].join('\n');

/**
 * Shapes every reader must survive; `seed` is one valid file of the reader. With `onlyFromSeed`, just
 * the shapes made from the seed (the others are the same for every seed of a reader).
 */
export function specialShapes(format: Format, seed: string, frontmatter = false, onlyFromSeed = false): SpecialShape[] {
  const s = seed;
  const b = bytesOf;
  const DEEP = 100_000;
  const yamlExtra = (extra: string) => (frontmatter ? s.replace(/^---\r?\n/, `---\n${extra}\n`) : `${s.trimEnd()}\n${extra}\n`);
  const jsonExtra = (extra: string) => s.replace(/^\s*\{/, `{ "x_extra": ${extra},`);
  const shapes: SpecialShape[] = [
    { name: 'empty file', bytes: b('') },
    { name: 'whitespace only', bytes: b(' \n\t\n') },
    { name: 'a NUL byte', bytes: b('\0') },
    { name: 'BOM + seed', bytes: b(`\uFEFF${s}`) },
    { name: 'CRLF seed', bytes: b(s.replace(/\r?\n/g, '\r\n')) },
    { name: 'BOM + CRLF seed', bytes: b(`\uFEFF${s.replace(/\r?\n/g, '\r\n')}`) },
    { name: 'UTF-16LE seed', bytes: concat([0xff, 0xfe], new Uint8Array(new Uint16Array([...s].map((c) => c.charCodeAt(0))).buffer)) },
    { name: 'invalid UTF-8 (0xff) in seed', bytes: concat(b(s.slice(0, s.length >> 1)), [0xff, 0xfe, 0xfd], b(s.slice(s.length >> 1))) },
    { name: 'overlong UTF-8 slash', bytes: concat(b(s.slice(0, 10)), [0xc0, 0xaf], b(s.slice(10))) },
    { name: 'UTF-8 encoded surrogate', bytes: concat(b(s), [0xed, 0xa0, 0x80]) },
    { name: 'NUL bytes inside seed', bytes: b(s.replace(/\n/, '\n\0\0')) },
    { name: 'seed twice (duplicate keys / documents)', bytes: b(`${s}\n${s}`) },
    { name: 'seed as two YAML documents', bytes: b(`${s}\n---\n${s}`) },
    { name: '10^5 nested [', bytes: b(nested('[', ']', DEEP)) },
    { name: '10^5 nested {"a":', bytes: b(`${'{"a":'.repeat(DEEP)}1${'}'.repeat(DEEP)}`) },
    { name: '10^5 unclosed [', bytes: b('['.repeat(DEEP)) },
    { name: '10^5 nested block sequences', bytes: b(`${'- '.repeat(DEEP)}x\n`) },
    { name: '10^5 nested blockquotes', bytes: b(`${'>'.repeat(DEEP)} x\n`) },
    { name: '2,000 nested list items', bytes: b(`${Array.from({ length: 2000 }, (_, i) => `${' '.repeat(i * 2)}- x`).join('\n')}\n`) },
    { name: '2 x 10^4 * and `', bytes: b(`${'*'.repeat(20_000)}${'`'.repeat(20_000)}`) },
    { name: 'one 1 MB line', bytes: b('a'.repeat(1 << 20)) },
    { name: '100 MB sparse file after the seed', head: b(s), size: 100 * 1024 * 1024 },
    { name: '16 MB file just over the limit', head: b(s), size: 16 * 1024 * 1024 + 1 },
  ];
  if (format === 'yaml' || frontmatter) {
    shapes.push(
      { name: 'YAML alias bomb', bytes: b(frontmatter ? `---\n${ALIAS_BOMB}\n---\nbody\n` : ALIAS_BOMB) },
      { name: 'alias bomb inside seed', bytes: b(yamlExtra(ALIAS_BOMB.replace(/^(\w):/gm, 'x_$1:'))) },
      { name: 'self-referential alias inside seed', bytes: b(yamlExtra('x_loop: &loop [*loop]')) },
      { name: 'self-referential map alias', bytes: b(yamlExtra('x_loop: &loop\n  again: *loop')) },
      { name: '__proto__ key inside seed', bytes: b(yamlExtra('__proto__: {polluted: true}')) },
      { name: 'constructor.prototype inside seed', bytes: b(yamlExtra('constructor: {prototype: {polluted: true}}')) },
      { name: 'merge key carrying __proto__', bytes: b(yamlExtra('x_merge:\n  <<: {__proto__: {polluted: true}}')) },
      { name: '10^5 nested [ inside seed', bytes: b(yamlExtra(`x_deep: ${nested('[', ']', DEEP)}`)) },
      { name: '150 nested [ inside seed', bytes: b(yamlExtra(`x_deep: ${nested('[', ']', 150)}`)) },
      // The YAML library compared each key with every earlier one: 20,000 keys took 8 s, 10^5 minutes.
      { name: '10,000 keys', bytes: b(Array.from({ length: 10_000 }, (_, i) => `k${i}: ${i}`).join('\n')) },
      { name: '10,000 keys in a flow map', bytes: b(`{${Array.from({ length: 10_000 }, (_, i) => `k${i}: ${i}`).join(', ')}}`) },
    );
  }
  if (format === 'json') {
    shapes.push(
      { name: '__proto__ key inside seed', bytes: b(jsonExtra('{}').replace('"x_extra"', '"__proto__"').replace('{}', '{ "polluted": true }')) },
      {
        name: 'constructor.prototype inside seed',
        bytes: b(jsonExtra('{}').replace('"x_extra"', '"constructor"').replace('{}', '{ "prototype": { "polluted": true } }')),
      },
      { name: '10^5 nested [ inside seed', bytes: b(jsonExtra(nested('[', ']', DEEP))) },
      { name: '150 nested [ inside seed', bytes: b(jsonExtra(nested('[', ']', 150))) },
      { name: 'duplicate key', bytes: b(s.replace(/^\s*\{/, '{ "x_dup": 1, "x_dup": 2,')) },
      { name: 'huge number', bytes: b(jsonExtra('1e999999')) },
      { name: '10^5 keys', bytes: b(`{${Array.from({ length: DEEP }, (_, i) => `"k${i}": ${i}`).join(',')}}`) },
    );
  }
  const fromSeed = shapes.filter((shape) => ('bytes' in shape ? containsSeedLine(shape.bytes, s) : true));
  return onlyFromSeed ? fromSeed : shapes;
}

/** Whether a shape was built from the seed: it holds the seed's first non-empty line. */
function containsSeedLine(bytes: Uint8Array, seed: string): boolean {
  const line = seed.split('\n').find((l) => l.trim() !== '');
  return line !== undefined && new TextDecoder().decode(bytes.slice(0, 4096)).includes(line.trim());
}
