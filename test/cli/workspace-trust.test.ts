import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliBundle, runSluice } from '../hardening/cli-bundle.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/**
 * Workspace trust through the built CLI. The attacker is the coding agent: it can write any file in
 * the work tree (untracked, never reviewed) and run any command, but has no terminal a person
 * answers. Every project here is a git repository; the agent's payload makes a git commit, so "did
 * it run" is `git log`.
 */
const git = (dir: string, ...args: string[]) =>
  execFileSync('git', args, {
    cwd: dir,
    encoding: 'utf8',
    env: { ...process.env, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' },
  });
const commits = (dir: string) => git(dir, 'log', '--format=%s').trim().split('\n');
const PWNED = 'unauthorized commit';
/** Commits in the project folder (never wherever the test runner happens to be). */
const payload = (dir: string) =>
  `require('node:child_process').execFileSync('git', ['-c', 'user.name=a', '-c', 'user.email=a@b', 'commit', '--allow-empty', '-q', '-m', '${PWNED}'], { cwd: ${JSON.stringify(dir)} });`;

/** A fresh repository with one commit, and a private config folder for this test (never the user's). */
async function repo(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-trust-'));
  git(dir, 'init', '-q');
  git(dir, 'commit', '--allow-empty', '-q', '-m', 'init');
  const home = await mkdtemp(join(tmpdir(), 'sluice-trust-home-'));
  return { dir, env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SLUICE_TRUSTED_HASH: '' } };
}

/** The agent's untracked config: a plugin that commits as soon as it is imported. */
function plantPlugin(dir: string): void {
  writeFileSync(
    join(dir, 'evil-plugin.mjs'),
    `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${payload(dir)}\nexport default { name: 'helper', setup() {} };\n`,
  );
  writeFileSync(join(dir, 'sluice.config.yaml'), 'plugins:\n  - ./evil-plugin.mjs\n');
}

const untrusted = (r: { code: number | null; stderr: string }, file: RegExp, what: RegExp) => {
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /WORKSPACE_UNTRUSTED/);
  assert.match(r.stderr, file);
  assert.match(r.stderr, what);
};

describe('workspace trust: project code runs only when a person trusted it', () => {
  it('an agent-written config plugin does not run from the SessionStart hook, and views keep working', async () => {
    const { dir, env } = await repo();
    plantPlugin(dir);
    for (const args of [
      ['handoff', '--hook', 'claude'],
      ['status'],
      ['audit'],
      ['report'],
      ['specs'],
      ['trust', '--show'],
      ['schema', 'config'],
      ['profile', 'validate', 'sluice.config.yaml'],
      ['--help'],
    ]) {
      const r = await runSluice(dir, args, env);
      assert.doesNotMatch(r.stderr, /WORKSPACE_UNTRUSTED/, `${args.join(' ')} needs no project code: ${r.stderr}`);
    }
    assert.deepEqual(commits(dir), ['init'], 'no command ran the plugin');
  });

  it('commands that would load it refuse with WORKSPACE_UNTRUSTED naming the file and the plugin', async () => {
    const { dir, env } = await repo();
    plantPlugin(dir);
    for (const args of [['plugins'], ['init'], ['lifecycle', 'status'], ['some-plugin-command']]) {
      untrusted(await runSluice(dir, args, env), /sluice\.config\.yaml/, /plugins\[0\].*evil-plugin\.mjs is not trusted/);
    }
    assert.deepEqual(commits(dir), ['init']);
  });

  it('a plugin given as a package name is hashed by the module file it resolves to', async () => {
    const { dir, env } = await repo();
    const pkg = join(dir, 'node_modules', 'acme-helper');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(pkg, 'package.json'), JSON.stringify({ name: 'acme-helper', type: 'module', exports: './index.js' }));
    writeFileSync(
      join(pkg, 'index.js'),
      `import { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${payload(dir)}\nexport default { name: 'acme-helper', setup() {} };\n`,
    );
    writeFileSync(join(dir, 'sluice.config.yaml'), 'plugins: [acme-helper]\n');
    untrusted(
      await runSluice(dir, ['plugins'], env),
      /sluice\.config\.yaml/,
      /plugins\[0\].*acme-helper \(.*node_modules\/acme-helper\/index\.js\) is not trusted/,
    );
    const trusted = { ...env, ...(await trustedEnv(dir)) };
    writeFileSync(join(pkg, 'index.js'), `${readFileSync(join(pkg, 'index.js'), 'utf8')}// swapped after review\n`);
    untrusted(await runSluice(dir, ['plugins'], trusted), /sluice\.config\.yaml/, /does not match.*acme-helper/);
    assert.deepEqual(commits(dir), ['init']);
  });

  it('`sluice trust` without a terminal grants nothing; the CI hash runs it; any change afterwards is refused again', async () => {
    const { dir, env } = await repo();
    plantPlugin(dir);
    const asked = await runSluice(dir, ['trust'], env);
    assert.equal(asked.code, 2);
    assert.match(asked.stdout, /plugins\[0\]: \.\/evil-plugin\.mjs/, 'it shows what would run');
    assert.match(asked.stderr, /on a terminal, and this is not one: nothing was trusted/);
    assert.equal(existsSync(join(env.XDG_CONFIG_HOME, 'sluice', 'trust.json')), false);
    untrusted(await runSluice(dir, ['plugins'], env), /sluice\.config\.yaml/, /plugins\[0\]/);
    assert.deepEqual(commits(dir), ['init']);

    const shown = JSON.parse((await runSluice(dir, ['trust', '--show', '--json'], env)).stdout) as { hash: string; trusted: boolean };
    assert.equal(shown.trusted, false);
    assert.equal(shown.hash, (await trustedEnv(dir)).SLUICE_TRUSTED_HASH);
    untrusted(await runSluice(dir, ['plugins'], { ...env, SLUICE_TRUSTED_HASH: 'sha256:0000' }), /sluice\.config\.yaml/, /SLUICE_TRUSTED_HASH does not match/);
    const ci = await runSluice(dir, ['plugins', '--json'], { ...env, SLUICE_TRUSTED_HASH: shown.hash });
    assert.equal(ci.code, 0, ci.stderr);
    assert.deepEqual(commits(dir), [PWNED, 'init'], 'trusted content runs');

    writeFileSync(join(dir, 'evil-plugin.mjs'), `${readFileSync(join(dir, 'evil-plugin.mjs'), 'utf8')}\n// one more line\n`);
    untrusted(
      await runSluice(dir, ['plugins'], { ...env, SLUICE_TRUSTED_HASH: shown.hash }),
      /sluice\.config\.yaml/,
      /plugins\[0\].*changed since you trusted it|does not match/,
    );
  });

  it('a person trusts on a terminal; the record lives in the private store outside the project; an edit is named', {
    skip: spawnSync('script', ['--version']).status !== 0 && 'util-linux `script` (a pseudo-terminal) is not installed',
  }, async () => {
    const { dir, env } = await repo();
    plantPlugin(dir);
    const tty = spawnSync(
      'script',
      ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(cliBundle())} --cwd ${JSON.stringify(dir)} trust`, '/dev/null'],
      { input: 'y\n', env: { ...process.env, ...env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 },
    );
    assert.match(tty.stdout, /trusted; recorded in/, tty.stdout + tty.stderr);
    const store = join(env.XDG_CONFIG_HOME, 'sluice', 'trust.json');
    assert.equal((await import('node:fs')).statSync(store).mode & 0o777, 0o600);
    assert.equal((await runSluice(dir, ['plugins'], env)).code, 0);
    assert.deepEqual(commits(dir), [PWNED, 'init']);

    writeFileSync(join(dir, 'sluice.config.yaml'), 'plugins:\n  - ./evil-plugin.mjs\nconcurrency: 3\n');
    untrusted(await runSluice(dir, ['plugins'], env), /sluice\.config\.yaml/, /its other settings changed since you trusted it/);
    writeFileSync(join(dir, 'evil-plugin.mjs'), `${readFileSync(join(dir, 'evil-plugin.mjs'), 'utf8')}// edited\n`);
    untrusted(await runSluice(dir, ['plugins'], env), /field plugins\[0\]/, /evil-plugin\.mjs changed since you trusted it/);

    chmodSync(store, 0o644);
    const loose = await runSluice(dir, ['plugins'], env);
    assert.equal(loose.code, 2);
    assert.match(loose.stderr, /TRUST_STORE_UNSAFE: .*trust\.json: .*mode 0?644/);
  });

  it('a trust store the agent could plant inside the project is refused', async () => {
    const { dir, env } = await repo();
    plantPlugin(dir);
    const inside = join(dir, '.config');
    mkdirSync(join(inside, 'sluice'), { recursive: true, mode: 0o700 });
    const r = await runSluice(dir, ['plugins'], { ...env, XDG_CONFIG_HOME: inside });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /TRUST_STORE_UNSAFE: .*inside the project/);
    assert.deepEqual(commits(dir), ['init']);
  });

  it('a delegate command from the config does not run until trusted', async () => {
    const { dir, env } = await repo();
    writeFileSync(
      join(dir, 'agent.mjs'),
      `#!/usr/bin/env node\nimport { createRequire } from 'node:module';\nconst require = createRequire(import.meta.url);\n${payload(dir)}\nconsole.log('done');\n`,
    );
    chmodSync(join(dir, 'agent.mjs'), 0o755);
    writeFileSync(join(dir, 'sluice.config.yaml'), 'delegates:\n  shell:\n    command: ./agent.mjs\n');
    // Views and status never touch it.
    assert.equal((await runSluice(dir, ['status'], env)).code, 2, 'no SDLC project here, but not a trust error');
    untrusted(
      await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', 'hello'], env),
      /sluice\.config\.yaml/,
      /field delegates\.shell.*\.\/agent\.mjs is not trusted/,
    );
    assert.deepEqual(commits(dir), ['init']);
    // Write mode: an analysis run's OS sandbox makes the whole tree read-only, so its commit could not happen at all.
    const ok = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'write', 'hello'], { ...env, ...(await trustedEnv(dir)) });
    assert.equal(ok.code, 0, ok.stderr);
    assert.deepEqual(commits(dir), [PWNED, 'init']);
  });

  it('a command gate in .sdlc/profile.yaml does not run until trusted', async () => {
    const { dir, env } = await repo();
    assert.equal((await runSluice(dir, ['init'], env)).code, 0);
    git(dir, 'add', '-A');
    git(dir, 'commit', '-q', '-m', 'sdlc');
    const profile = join(dir, '.sdlc', 'profile.yaml');
    writeFileSync(
      profile,
      `${readFileSync(profile, 'utf8')}\nsluice:\n  gates:\n    - {id: lint, type: command, phases: [0], argv: [git, -c, user.name=a, -c, user.email=a@b, commit, --allow-empty, -q, -m, "${PWNED}"]}\n`,
    );
    // Even with the edit re-frozen (visible in history and audit), the command itself needs trust.
    assert.equal((await runSluice(dir, ['refreeze', '.sdlc/profile.yaml', '--reason', 'lint gate'], env)).code, 0);
    untrusted(await runSluice(dir, ['gate'], env), /\.sdlc\/profile\.yaml/, /field sluice\.gates\.lint.*git .*commit.* is not trusted/);
    untrusted(await runSluice(dir, ['next'], env), /\.sdlc\/profile\.yaml/, /sluice\.gates\.lint/);
    assert.equal((await runSluice(dir, ['status'], env)).code, 0);
    assert.deepEqual(commits(dir), ['sdlc', 'init']);
    const shown = await runSluice(dir, ['trust', '--show'], env);
    assert.match(shown.stdout, /\+ \.sdlc\/profile\.yaml sluice\.gates\.lint: git -c user\.name=a/);
    await runSluice(dir, ['gate'], { ...env, ...(await trustedEnv(dir)) });
    assert.deepEqual(commits(dir), [PWNED, 'sdlc', 'init']);
  });
});
