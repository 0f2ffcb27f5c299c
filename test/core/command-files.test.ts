import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { filesNamedBy, scriptCommands } from '../../core/trust/command-files.ts';

const named = (...argv: string[]) => filesNamedBy(argv).map((f) => `${f.kind}:${f.spec}`);

describe('filesNamedBy: the files a command line makes run', () => {
  it('a program named by path, and the script operand of an interpreter (past its options)', () => {
    assert.deepEqual(named('./ai.sh', '--fast'), ['path:./ai.sh']);
    assert.deepEqual(named('node', '--max-old-space-size=99', 'tools/check.mjs', 'x.txt'), ['program:node', 'path:tools/check.mjs']);
    assert.deepEqual(named('python3.12', '-u', '-W', 'ignore', 'x.py'), ['program:python3.12', 'path:x.py']);
    assert.deepEqual(named('bash', '-o', 'pipefail', 'scripts/lint.sh'), ['program:bash', 'path:scripts/lint.sh']);
    assert.deepEqual(named('deno', 'run', '-A', 'main.ts'), ['program:deno', 'path:main.ts']);
    assert.deepEqual(named('sh', '--', '-odd-name.sh'), ['program:sh', 'path:-odd-name.sh']);
    assert.deepEqual(named('/usr/bin/env', 'A=1', '-u', 'B', 'node', 'x.js'), ['path:/usr/bin/env', 'program:node', 'path:x.js']);
  });

  it('preloaded modules spelled as paths count; package names and inline code do not', () => {
    assert.deepEqual(named('node', '-r', './setup.cjs', '--import=./hook.mjs', '-r', 'dotenv/config', 'main.js'), [
      'program:node',
      'path:./setup.cjs',
      'path:./hook.mjs',
      'path:main.js',
    ]);
    assert.deepEqual(named('node', '-e', 'require("./x")', 'y.js'), ['program:node']);
    assert.deepEqual(named('bash', '-ec', 'echo hi', 'name'), ['program:bash']);
    assert.deepEqual(named('python3', '-uc', 'print(1)'), ['program:python3']);
    assert.deepEqual(named('python3', '-m', 'tools.lint'), ['program:python3', 'python-module:tools.lint']);
  });

  it('package managers run package.json scripts', () => {
    assert.deepEqual(named('npm', 'run', 'lint'), ['program:npm', 'package-script:lint']);
    assert.deepEqual(named('npm', 'test'), ['program:npm', 'package-script:test']);
    assert.deepEqual(named('npm', 'install'), ['program:npm']);
    assert.deepEqual(named('yarn', 'lint'), ['program:yarn', 'package-script:lint']);
    assert.deepEqual(named('pnpm', 'install'), ['program:pnpm']);
    assert.deepEqual(scriptCommands('NODE_ENV=test node tools/a.mjs && eslint . | tee x; ./b.sh'), [
      ['node', 'tools/a.mjs'],
      ['eslint', '.'],
      ['tee', 'x'],
      ['./b.sh'],
    ]);
  });
});
