// Speed patches to the guard's shell parser (@ericcornelissen/bash-parser) as the guard's build bundles
// it. The guard parses before every tool call that needs it, in a fresh process, so most of a parse
// is code run for the first time: less work per character and per parse is what shortens it. Each
// patch keeps the parser's results byte for byte (test/guard/parser-patches.test.ts compares the
// syntax trees of the patched and the published parser over thousands of commands) and the build
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
];

/**
 * lodash.curry (the parser's pipeline stages are curried) gives every partial application a
 * `toString` that prints the original function's source with a comment, reading that source through
 * regular expressions each time. Nothing calls it; lodash's own fallback for engines without
 * defineProperty (identity) is taken instead. Calls, arities and results are unchanged.
 */
export const CURRY_PATCH = {
  from: 'var setWrapToString = !defineProperty ? identity : function(wrapper, reference, bitmask) {',
  to: 'var setWrapToString = true ? identity : function(wrapper, reference, bitmask) {',
};

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
    b.onLoad({ filter: /[\\/]lodash\.curry[\\/]index\.js$/ }, async (args) => {
      met.add('lodash.curry');
      return { contents: patched(await readFile(args.path, 'utf8'), [CURRY_PATCH], args.path), loader: 'js' };
    });
    b.onEnd((result) => {
      if (result.errors.length > 0) return;
      const missing = [...PARSER_PATCHES.map((p) => p.file), 'lodash.curry'].filter((f) => !met.has(f));
      if (missing.length > 0) throw new Error(`guard parser patches: ${missing.join(', ')} not bundled; revisit scripts/guard-parser-patches.mjs`);
    });
  },
};
