import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { build, type Plugin } from 'esbuild';
import fc from 'fast-check';
// @ts-expect-error a plain .mjs script without declarations
import { parserPatches } from '../../scripts/guard-parser-patches.mjs';
import { repoRoot } from '../hardening/repo-files.ts';

/**
 * The guard's build patches its shell parser for speed (scripts/guard-parser-patches.mjs). A patch
 * that changed a syntax tree could change a verdict, so the patched parser, bundled as the build
 * bundles it, must give exactly the published parser's trees (with source positions, which the
 * patched tokenizer computes) and the same errors, for thousands of commands parsed one after
 * another in one process (the patched parser keeps its modes between parses; the published one
 * rebuilds them each time).
 */
type Parse = (source: string, options?: { mode?: 'bash' | 'posix'; insertLOC?: boolean }) => unknown;

let dir: string;
let published: Parse;
let patched: Parse;

async function bundle(name: string, contents: string, plugins: Plugin[]): Promise<string> {
  const outfile = join(dir, `${name}.cjs`);
  await build({
    absWorkingDir: repoRoot,
    stdin: { contents, resolveDir: repoRoot, loader: 'js' },
    bundle: true,
    format: 'cjs',
    platform: 'node',
    outfile,
    logLevel: 'silent',
    plugins,
  });
  return outfile;
}

const PARSER = "module.exports = require('@ericcornelissen/bash-parser');";
const load = (file: string) => createRequire(file)(file) as Parse;

/** The tree as JSON, or the error's kind and first line (the published parser puts its stack, with bundle paths, in the message). */
function outcome(parse: Parse, source: string, mode: 'bash' | 'posix', insertLOC: boolean): string {
  try {
    return JSON.stringify(parse(source, { mode, insertLOC }));
  } catch (e) {
    const err = e as Error;
    return `${err.constructor.name}: ${String(err.message).split('\n')[0]}`;
  }
}

function assertSameTrees(source: string): void {
  for (const mode of ['bash', 'posix'] as const) {
    for (const insertLOC of [true, false]) {
      assert.equal(
        outcome(patched, source, mode, insertLOC),
        outcome(published, source, mode, insertLOC),
        `${mode}${insertLOC ? ' with positions' : ''}: ${JSON.stringify(source)}`,
      );
    }
  }
}

const word = fc.oneof(
  fc.constantFrom('git', 'commit', '-m', 'rm', '-rf', 'sed', '-i', 's/a/b/', 'cat', 'echo', 'tee', 'cp', 'mv', 'sluice', 'trust', 'env', 'sh', '-c', 'eval'),
  fc.constantFrom('.sdlc/state.yaml', 'src/a.ts', '../..', '/tmp/x', '~/x', '*.ts', '{a,b}', 'a\\ b', 'x=1', 'X+=2', '2', '-', '--', '#c', 'a#b'),
  fc.constantFrom("'a b'", "'$x'", '"a b"', '"$x"', '"${x:-d}"', '"${#x}"', '"${x/a/b}"', '"${!x}"', '"$@"', '"\\"q\\""', "$'a\\n'"),
  fc.constantFrom('$x', '${x}', '${x:=1}', '${x%%.*}', '$1', '$?', '$$', '$((1 + 2))', '$((x * (3 - y)))', '$(pwd)', '`date`', '"$(cat f)"', '$(echo "$(id)")'),
  fc.constantFrom('"$(cat <<\'EOF\'\nfix: typo\nEOF\n)"', '"\\`x\\`"', "'multi\nline'", '"tab\there"', '\\$HOME', 'a\\\nb'),
);
const redirect = fc.constantFrom(
  '',
  '',
  '',
  ' > out',
  ' >> .sdlc/x',
  ' 2>&1',
  ' < in',
  ' >| f',
  ' &> log',
  ' 3<> rw',
  ' <<< "here"',
  ' <<EOF\nbody\nEOF\n',
  ' <<-X\n\tb\nX\n',
  ' >&2',
);
const simple = fc.tuple(fc.array(word, { minLength: 1, maxLength: 5 }), redirect).map(([ws, r]) => ws.join(' ') + r);
const op = fc.constantFrom(' ; ', ' && ', ' || ', ' | ', ' & ', '\n', ';', '|&');
const list = fc.tuple(simple, fc.array(fc.tuple(op, simple), { maxLength: 3 })).map(([first, rest]) => first + rest.map(([o, c]) => o + c).join(''));
const command = fc.oneof(
  { weight: 4, arbitrary: list },
  { weight: 1, arbitrary: list.map((l) => `(${l})`) },
  { weight: 1, arbitrary: list.map((l) => `{ ${l}; }`) },
  { weight: 1, arbitrary: list.map((l) => `echo "$(${l})"`) },
  { weight: 1, arbitrary: fc.tuple(list, list).map(([a, b]) => `if ${a}; then ${b}; else ${a}; fi`) },
  { weight: 1, arbitrary: fc.tuple(list, list).map(([a, b]) => `while ${a}; do ${b}; done`) },
  { weight: 1, arbitrary: list.map((l) => `for f in *.ts a b; do ${l}; done`) },
  { weight: 1, arbitrary: list.map((l) => `case "$1" in a|b) ${l} ;; *) echo ;; esac`) },
  { weight: 1, arbitrary: list.map((l) => `f() { ${l}; }; f`) },
  // Cut anywhere: unterminated quotes, substitutions and compound commands are errors both must raise alike.
  { weight: 1, arbitrary: fc.tuple(list, fc.nat()).map(([l, n]) => l.slice(0, n % (l.length + 1))) },
);

describe("the guard's shell parser, speed-patched as the build bundles it", () => {
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-parser-patches-'));
    published = load(await bundle('published', PARSER, []));
    patched = load(await bundle('patched', PARSER, [parserPatches]));
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('patches every place it names, and fails the build when one is not bundled', async () => {
    const text = readFileSync(join(dir, 'patched.cjs'), 'utf8');
    for (const patchedIn of ['operatorPrefixes()', 'loadModeNow(name)', 'row: p.row, char: p.char', 'bound.concat(Array.prototype.slice.call(arguments))'])
      assert.ok(text.includes(patchedIn), patchedIn);
    assert.ok(!text.includes('JSON.parse(JSON.stringify(this.loc))'));
    assert.ok(readFileSync(join(dir, 'published.cjs'), 'utf8').includes('JSON.parse(JSON.stringify(this.loc))'));
    await assert.rejects(bundle('no-parser', 'module.exports = 1;', [parserPatches]), /not bundled/);
  });

  it("gives the published parser's trees and errors for commands Claude Code runs and for broken ones", () => {
    for (const source of [
      'npm test 2>&1 | tail -20',
      "git add -A && git commit -m \"$(cat <<'EOF'\nfix(auth): don't drop the session (refresh)\n\nCo-Authored-By: Claude <noreply@anthropic.com>\nEOF\n)\"",
      'cd src && ls -la > /tmp/out.txt; echo "${HOME:-x}" >> log',
      'env X=1 bash -c \'echo "$X" | tee out\' 2>/dev/null',
      'find . -name "*.log" -delete && xargs rm < list',
      'echo $(( (1 + 2) * 3 )) `echo \\`id\\``',
      '',
      '   ',
      '# only a comment',
      'echo "unterminated',
      'if true; then',
      'echo $(',
      'a && && b',
      ')',
    ])
      assertSameTrees(source);
  });

  it("gives the published parser's trees and errors for generated commands, parsed one after another", () => {
    fc.assert(
      fc.property(command, (source) => assertSameTrees(source)),
      { numRuns: 600 },
    );
  });
});
