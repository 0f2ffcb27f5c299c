import fc from 'fast-check';
import { dirname } from 'node:path';
export function wordsFor(projectDir: string, places: { userConfigDir: string }): fc.Arbitrary<string> {
  const parent = dirname(projectDir);
  return fc.oneof(
    fc.constantFrom('rm', 'rm -rf', 'cp', 'mv', 'ln -s', 'tee', 'touch', 'sed -i', 'sed', 'cat', 'echo', 'ls', 'chmod -R 777', 'npm test', 'node'),
    fc.constantFrom('git commit -m', 'git checkout', 'git reset --hard', 'git clean -fd', 'git stash', 'git status', 'sluice', 'sluice trust', 'sluice next --sign'),
    fc.constantFrom('sh -c', 'bash -c', 'eval', 'env X=1', 'sudo', 'timeout 5', 'xargs rm', 'find . -delete', 'cd', 'pushd', 'python3 -c', 'ssh-keygen -Y sign'),
    fc.constantFrom('.sdlc/state.yaml', '.sdlc', '.sdlc/artifacts/x.md', '.sluice/runs/a', '.prizmkit/state/journal/j', 'sluice.config.yaml', '.claude/settings.json'),
    fc.constantFrom(".sd''lc/state.yaml", '".sdlc"', "'.sluice'", 'allowed_signers', 'Lifecycle-Requirement:', 'SLUICE_TRUSTED_HASH=1', 'SLUICE_COMMIT_GRANT=x'),
    fc.constantFrom('src', 'src/a.ts', 'notes.md', 'build', 'dist/out.js', 'README.md', '-f', '-r', '--force', '-m', 'msg', 'x', '1'),
    fc.constantFrom('.', '..', './', '../', '/', '~', '~/', 'src/..', 'src/../..', '../..', '../app', './src/../../'),
    fc.constantFrom(projectDir, `${projectDir}/`, `${projectDir}/src`, `${projectDir}/.sdlc/state.yaml`, `${projectDir}/../`, parent, `${parent}/`, `${projectDir}-old`),
    fc.constantFrom(`${places.userConfigDir}/grant.key`, '~/.config/sluice/commit-grant.key', '$HOME', '$X', '${X}', '$(pwd)', '`pwd`', '*.ts', '{a,b}', '$((1+2))'),
    fc.constantFrom('"$(cat <<\'EOF\'\nfix: typo\nEOF\n)"', '"a b"', "'a;b'", 'a\\ b', 'x=1'),
  );
}

export function commandsFor(projectDir: string, places: { userConfigDir: string }): fc.Arbitrary<string> {
  const word = wordsFor(projectDir, places);
  const redirect = fc.constantFrom('', '', '', ' > out.txt', ' >> .sdlc/state.yaml', ' 2>&1', ' < in.txt', ' >| x', ' &> log', ' > "$F"', ` > ${projectDir}/.sluice/x`);
  const simple = fc.tuple(fc.array(word, { minLength: 1, maxLength: 5 }), redirect).map(([ws, r]) => ws.join(' ') + r);
  const op = fc.constantFrom(' ; ', ' && ', ' || ', ' | ', ' & ', '\n');
  const list = fc.tuple(simple, fc.array(fc.tuple(op, simple), { maxLength: 3 })).map(([first, rest]) => first + rest.map(([o, c]) => o + c).join(''));
  return fc.oneof({ weight: 4, arbitrary: list }, { weight: 1, arbitrary: list.map((l) => `(${l})`) }, { weight: 1, arbitrary: list.map((l) => `echo "$(${l})"`) });
}

