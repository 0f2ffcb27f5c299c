import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { loadCached } from '../../plugins/host-node/code-cache.ts';
import { decisionOrAsk, decisionOrAskAsync } from './decision-or-ask.ts';
import { decideTool, type GuardEnv } from '../../plugins/guard/decide-tool.ts';
import type { ShellScope } from '../../plugins/guard/path-checks.ts';
import { judgeShell } from '../../plugins/guard/shell-guard.ts';
import { cliBundle } from '../hardening/cli-bundle.ts';
import { repoRoot } from '../hardening/repo-files.ts';

/**
 * The guard answers most Bash commands without its shell parser (shell-prefilter.ts), and the built
 * guard runs the parser from a CommonJS bundle through V8's code cache. Neither may change a
 * decision: over thousands of generated commands mixing sluice's record names, paths above and in
 * the project, quoting, expansions, redirections and operators,
 * - a command the prefilter lets through unparsed is one the full parser allows, and
 * - the shipped bundle (dist/guard-shell.cjs with its cache) decides exactly as the source does.
 */
let base: string;
let project: string;
let places: GuardEnv['places'];

function wordsFor(projectDir: string): fc.Arbitrary<string> {
  const parent = dirname(projectDir);
  return fc.oneof(
    fc.constantFrom('rm', 'rm -rf', 'cp', 'mv', 'ln -s', 'tee', 'touch', 'sed -i', 'sed', 'cat', 'echo', 'ls', 'chmod -R 777', 'npm test', 'node'),
    fc.constantFrom(
      'git commit -m',
      'git checkout',
      'git reset --hard',
      'git clean -fd',
      'git stash',
      'git status',
      'sluice',
      'sluice trust',
      'sluice next --sign',
      'git commit -F',
      'git commit --amend',
      'git commit -C HEAD',
      'git -c commit.template=msg.txt commit',
      'git config core.hooksPath',
      'git merge -F',
      'git commit-tree -F',
      'git cherry-pick',
    ),
    fc.constantFrom(
      'sh -c',
      'bash -c',
      'eval',
      'env X=1',
      'sudo',
      'timeout 5',
      'xargs rm',
      'find . -delete',
      'cd',
      'pushd',
      'python3 -c',
      'ssh-keygen -Y sign',
    ),
    fc.constantFrom(
      '.sdlc/state.yaml',
      '.sdlc',
      '.sdlc/artifacts/x.md',
      '.sluice/runs/a',
      '.prizmkit/state/journal/j',
      'sluice.config.yaml',
      '.claude/settings.json',
    ),
    fc.constantFrom(
      ".sd''lc/state.yaml",
      '".sdlc"',
      "'.sluice'",
      'allowed_signers',
      'Lifecycle-Requirement:',
      'SLUICE_TRUSTED_HASH=1',
      'SLUICE_COMMIT_GRANT=x',
      'msg.txt',
      'clean.txt',
      '--file=msg.txt',
      '.git/hooks/commit-msg',
    ),
    fc.constantFrom('src', 'src/a.ts', 'notes.md', 'build', 'dist/out.js', 'README.md', '-f', '-r', '--force', '-m', 'msg', 'x', '1'),
    fc.constantFrom('.', '..', './', '../', '/', '~', '~/', 'src/..', 'src/../..', '../..', '../app', './src/../../'),
    fc.constantFrom(
      projectDir,
      `${projectDir}/`,
      `${projectDir}/src`,
      `${projectDir}/.sdlc/state.yaml`,
      `${projectDir}/../`,
      parent,
      `${parent}/`,
      `${projectDir}-old`,
    ),
    fc.constantFrom(
      'app',
      'app/.sdlc',
      'config',
      '.config',
      dirname(places.userConfigDir),
      `${dirname(places.userConfigDir)}/`,
      dirname(parent),
      places.userCacheDir,
    ),
    fc.constantFrom(
      `${places.userConfigDir}/grant.key`,
      `${places.userCacheDir}/parsed/0123.json`,
      places.userCacheDir,
      '~/.config/sluice/commit-grant.key',
      '$HOME',
      '$X',
      '${X}',
      '$(pwd)',
      '`pwd`',
      '*.ts',
      '{a,b}',
      '$((1+2))',
    ),
    fc.constantFrom('"$(cat <<\'EOF\'\nfix: typo\nEOF\n)"', '"a b"', "'a;b'", 'a\\ b', 'x=1'),
  );
}

/**
 * Words that name no record: the commands the prefilter may let through, where a wrong answer hides.
 * Writers and recursive commands with paths in, to and above the project, as plain as they come.
 */
function plainWordsFor(projectDir: string): fc.Arbitrary<string> {
  const parent = dirname(projectDir);
  return fc.oneof(
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        'rm -rf',
        'rm',
        'mv',
        'cp -r',
        'chmod -R 700',
        'git clean -fdx',
        'git checkout',
        'git commit -F',
        'git commit -am',
        'git commit --amend',
        'git config',
        'git merge -F',
        'git commit-tree -F',
        'git cherry-pick',
        'tee',
        'touch',
        'ln -s',
        'rsync -a --delete',
        'env',
        'sudo',
        'ls',
        'npm run build',
      ),
    },
    {
      weight: 3,
      arbitrary: fc.constantFrom(
        'src',
        'src/a.ts',
        'build',
        '..',
        '../',
        '../..',
        'src/..',
        'src/../..',
        './src/../..',
        'src/.',
        './.',
        'app',
        '.config',
        'config',
        'a/../../b',
        'msg.txt',
        '--file=msg.txt',
        '-f',
        'x',
      ),
    },
    {
      weight: 2,
      arbitrary: fc.constantFrom(
        projectDir,
        `${projectDir}/`,
        `${projectDir}//`,
        `${projectDir}/src`,
        `${projectDir}/.`,
        `${projectDir}/src/../..`,
        parent,
        `${parent}/`,
        dirname(places.userConfigDir),
        dirname(parent),
      ),
    },
  );
}

function commandsFor(projectDir: string, plain = false): fc.Arbitrary<string> {
  const word = plain ? plainWordsFor(projectDir) : wordsFor(projectDir);
  const redirect = fc.constantFrom(
    '',
    '',
    '',
    ' > out.txt',
    ' >> .sdlc/state.yaml',
    ' 2>&1',
    ' < in.txt',
    ' >| x',
    ' &> log',
    ' > "$F"',
    ` > ${projectDir}/.sluice/x`,
  );
  const simple = fc.tuple(fc.array(word, { minLength: 1, maxLength: 5 }), redirect).map(([ws, r]) => ws.join(' ') + r);
  const op = fc.constantFrom(' ; ', ' && ', ' || ', ' | ', ' & ', '\n');
  const list = fc.tuple(simple, fc.array(fc.tuple(op, simple), { maxLength: 3 })).map(([first, rest]) => first + rest.map(([o, c]) => o + c).join(''));
  return fc.oneof(
    { weight: 4, arbitrary: list },
    { weight: 1, arbitrary: list.map((l) => `(${l})`) },
    { weight: 1, arbitrary: list.map((l) => `echo "$(${l})"`) },
  );
}

describe('the guard fast paths decide as the full parser does (generated commands)', () => {
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-guard-diff-'));
    project = join(base, 'app');
    places = { userConfigDir: join(base, 'config', 'sluice'), userCacheDir: join(base, 'cachedir') };
    for (const d of ['.sdlc/artifacts', '.sluice/runs', '.prizmkit/state/journal', 'src', 'build']) mkdirSync(join(project, d), { recursive: true });
    mkdirSync(places.userConfigDir, { recursive: true });
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    writeFileSync(join(project, 'src/a.ts'), 'export {}\n');
    // Commit message files (`git commit -F`), one carrying sluice's trailer, where commands may run.
    for (const d of [project, join(project, 'src')]) {
      writeFileSync(join(d, 'msg.txt'), 'feat: x\n\nLifecycle-Requirement: r1\n');
      writeFileSync(join(d, 'clean.txt'), 'fix: y\n');
    }
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  it('the guard, prefilter first, answers every Bash command exactly as the full parser does', async () => {
    // Claude Code keeps the shell's folder between calls: the command may run anywhere.
    const cwds = fc.constantFrom(project, join(project, 'src'), join(project, '.sdlc'), dirname(project), dirname(places.userConfigDir), base);
    await fc.assert(
      fc.asyncProperty(fc.oneof(commandsFor(project), commandsFor(project, true)), cwds, async (command, cwd) => {
        const full = await decisionOrAskAsync(() => judgeShell(command, { cwd, projectDir: project, places }));
        const guarded = await decisionOrAskAsync(() => decideTool({ tool_name: 'Bash', cwd, tool_input: { command } }, { projectDir: project, places }));
        assert.equal(guarded.verdict, full.verdict, `the guard said ${guarded.verdict}, the parser ${full.verdict} (${full.reason})`);
      }),
      { numRuns: 2500 },
    );
  });

  it('the shipped parser bundle, run through its code cache, decides exactly as the source', () => {
    cliBundle();
    const dist = join(repoRoot, 'dist');
    const shipped = loadCached<{ judgeShell: typeof judgeShell }>(
      join(dist, 'guard-shell.cjs'),
      join(dist, 'guard-shell.cache'),
      createRequire(join(dist, 'guard.cjs')),
    );
    fc.assert(
      fc.property(commandsFor(project), (command) => {
        const scope: ShellScope = { cwd: project, projectDir: project, places };
        assert.deepEqual(
          decisionOrAsk(() => shipped.exports.judgeShell(command, scope)),
          decisionOrAsk(() => judgeShell(command, scope)),
        );
      }),
      { numRuns: 1000 },
    );
  });
});
