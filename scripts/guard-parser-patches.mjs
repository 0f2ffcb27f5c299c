// Speed patches to the guard's shell parser (@ericcornelissen/bash-parser) as the guard's build bundles
// it. The guard parses before every tool call that needs it, in a fresh process, so most of a parse
// is code run for the first time: less work per character and per parse is what shortens it. Each
// patch keeps the parser's results byte for byte (test/guard/parser-patches.test.ts compares the
// syntax trees of the patched and the published parser over a corpus and hundreds of generated
// commands, as the guard calls it: no resolver options) and the build
// fails when a patched text is no longer there, so a new parser version is reviewed, not mispatched.
import { readFile } from 'node:fs/promises';

const PARSER_FILE = /[\\/]@ericcornelissen[\\/]bash-parser[\\/]src[\\/](.+)\.js$/;

export const PARSER_PATCHES = [
  {
    // Asked for every character: built the operator list and sliced each operator. The same answer
    // from the set of all operator prefixes ('' included), made once; the operators never change.
    file: 'utils/tokens.js',
    from: 'return Object.keys(operators).some(op => op.slice(0, text.length) === text);',
    to: "if (typeof text === 'string') return operatorPrefixes().has(text);\n\treturn Object.keys(operators).some(op => op.slice(0, text.length) === text);",
    append:
      '\nlet prefixes;\nfunction operatorPrefixes() {\n\tif (!prefixes) {\n\t\tprefixes = new Set();\n\t\tfor (const op of Object.keys(operators)) for (let n = 0; n <= op.length; n++) prefixes.add(op.slice(0, n));\n\t}\n\treturn prefixes;\n}\n',
  },
  {
    // Every character copied the tokenizer's position through JSON. The position is always
    // {start, previous, current}, each {col, row, char} of numbers or previous null: copied field by field.
    file: 'modes/posix/tokenizer/index.js',
    from: 'const loc = JSON.parse(JSON.stringify(this.loc));',
    to: 'const at = p => (p === null ? null : {col: p.col, row: p.row, char: p.char});\n\t\tconst loc = {start: at(this.loc.start), previous: at(this.loc.previous), current: at(this.loc.current)};',
  },
  {
    // Every parse (and every `$(...)` within one) rebuilt its mode (posix, then bash on top) from the
    // same modules; rebuilding again yields equal objects (bash's only write, into its operator table,
    // writes the same entries each time). Built once per mode.
    file: 'index.js',
    from: 'function loadPlugin(name) {',
    to: 'const loadedModes = {};\nfunction loadPlugin(name) {\n\tif (!Object.prototype.hasOwnProperty.call(loadedModes, name)) loadedModes[name] = loadModeNow(name);\n\treturn loadedModes[name];\n}\nfunction loadModeNow(name) {',
  },
  {
    // Quadratic: every operator end and every `$NAME` end put the character back by copying the whole
    // rest of the command (`[char].concat(source)`), and shift() on an array past V8's large-object
    // size moves every element (48 KB took 3 s, 1 MB minutes). The rest of the command as a cursor:
    // the same characters handed out in the same order (each reducer takes exactly one, the one put
    // back first), in constant time each.
    file: 'modes/posix/tokenizer/index.js',
    from: 'const source = Array.from(src);',
    to: 'const source = new SourceCursor(Array.from(src));',
    append:
      '\nclass SourceCursor {\n\tconstructor(chars) {\n\t\tthis.chars = chars;\n\t\tthis.at = 0;\n\t}\n\tpeek() {\n\t\treturn this.chars[this.at];\n\t}\n\tshift() {\n\t\treturn this.at < this.chars.length ? this.chars[this.at++] : undefined;\n\t}\n\tputBack(char) {\n\t\tthis.chars[--this.at] = char;\n\t\treturn this;\n\t}\n}\n',
  },
  { file: 'modes/posix/tokenizer/index.js', from: 'const char = source[0];', to: 'const char = source.peek();' },
  ...['operator', 'expansion-parameter', 'expansion-start', 'expansion-start'].map((reducer) => ({
    file: `modes/posix/tokenizer/reducers/${reducer}.js`,
    from: '[char].concat(source)',
    to: 'source.putBack(char)',
  })),
  // Pipeline stages that act only through a caller's resolver option passed every token on unchanged
  // without one. The guard passes none: such a stage hands its input on as it is (the same tokens,
  // one iterator fewer per stage; the options of a parse never change during it).
  ...['tilde-expanding:resolveHomeUser', 'path-expansion:resolvePath'].map((entry) => {
    const [rule, option] = entry.split(':');
    return {
      file: `modes/posix/rules/${rule}.js`,
      from: 'module.exports = options => map(token => {',
      to: 'const resolving = options => map(token => {',
      append: `module.exports = options => (typeof options.${option} === 'function' ? resolving(options) : tokens => tokens);\n`,
    };
  }),
  ...[
    'parameter-expansion:parameterExpansion:resolveParameter',
    'command-expansion:commandExpansion:execCommand',
    'arithmetic-expansion:arithmeticExpansion:runArithmeticExpression',
  ].map((entry) => {
    const [rule, stage, option] = entry.split(':');
    return {
      file: `modes/posix/rules/${rule}.js`,
      from: `module.exports = ${stage};`,
      to: `const resolving = ${stage}.resolve;\n${stage}.resolve = options => (options.${option} ? resolving(options) : tokens => tokens);\nmodule.exports = ${stage};`,
    };
  }),
];

/**
 * lodash.curry, which the parser's pipeline stages are curried with, is a general machine (placeholders,
 * binding, `new`, a `toString` per partial that re-reads the original's source through regular
 * expressions) whose setup is a quarter of the parser's load time. The parser only ever calls a
 * curried function with fewer arguments (a partial) or with all of them, never with a placeholder
 * or `new`: for that, this curry does exactly what lodash's does (all arguments, extra ones too,
 * reach the function once there are at least `arity` of them).
 */
export const SMALL_CURRY = `'use strict';
function curried(func, arity, bound) {
	return function () {
		const args = bound.concat(Array.prototype.slice.call(arguments));
		return args.length < arity ? curried(func, arity, args) : func.apply(this, args);
	};
}
function curry(func, arity) {
	return curried(func, arity === undefined ? func.length : arity, []);
}
curry.placeholder = {};
module.exports = curry;
`;

/**
 * Modules the guard's parsing never runs, replaced by stubs so they are neither read, compiled nor
 * cached: magic-string rewrites a word only for a resolver option (see the stages above), and the
 * grammar's source is kept for rebuilding the parser tables, which are bundled built. Were one
 * reached after all, the stub throws: a parse that throws is answered with "ask", never "allow".
 */
export const STUBS = [
  { path: /[\\/]magic-string[\\/]dist[\\/]magic-string\.cjs\.js$/, name: 'magic-string' },
  { path: /[\\/]@ericcornelissen[\\/]bash-parser[\\/]src[\\/]modes[\\/]posix[\\/]grammar\.js$/, name: "bash-parser's grammar source" },
];

const stub = (name) =>
  `'use strict';\nmodule.exports = new Proxy(function () {}, { get() { throw new Error("${name} is left out of the guard's parser"); }, apply() { throw new Error("${name} is left out of the guard's parser"); }, construct() { throw new Error("${name} is left out of the guard's parser"); } });\n`;

function patched(text, patches, path) {
  let out = text;
  for (const p of patches) {
    if (!out.includes(p.from))
      throw new Error(`${path}: the text the guard's parser patch replaces is gone (new parser version?); revisit scripts/guard-parser-patches.mjs`);
    out = out.replace(p.from, p.to) + (p.append ?? '');
  }
  return out;
}

/** The esbuild plugin that applies the patches while bundling; each patched file must be met. */
export const parserPatches = {
  name: 'guard parser speed patches',
  setup(b) {
    const met = new Set();
    b.onStart(() => met.clear());
    b.onLoad({ filter: PARSER_FILE }, async (args) => {
      const rel = args.path.match(PARSER_FILE)[1].replace(/\\/g, '/') + '.js';
      const patches = PARSER_PATCHES.filter((p) => p.file === rel);
      if (patches.length === 0) return undefined;
      met.add(rel);
      return { contents: patched(await readFile(args.path, 'utf8'), patches, args.path), loader: 'js' };
    });
    for (const { path, name } of STUBS)
      b.onLoad({ filter: path }, () => {
        met.add(name);
        return { contents: stub(name), loader: 'js' };
      });
    b.onLoad({ filter: /[\\/]lodash\.curry[\\/]index\.js$/ }, async (args) => {
      met.add('lodash.curry');
      return { contents: SMALL_CURRY, loader: 'js' };
    });
    b.onEnd((result) => {
      if (result.errors.length > 0) return;
      const missing = [...PARSER_PATCHES.map((p) => p.file), 'lodash.curry', ...STUBS.map((s) => s.name)].filter((f) => !met.has(f));
      if (missing.length > 0) throw new Error(`guard parser patches: ${missing.join(', ')} not bundled; revisit scripts/guard-parser-patches.mjs`);
    });
  },
};
