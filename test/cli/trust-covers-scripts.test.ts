import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliBundle, runSluice } from '../hardening/cli-bundle.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/**
 * Trust covers what a trusted setting runs: the agent edits `./ai.sh` (or `tools/check.mjs`, a
 * package.json script) after a person trusted the project, and sluice refuses to run it until the
 * person trusts again. "Did it run" is a marker file the script writes outside the project.
 */
async function project(): Promise<{ dir: string; env: Record<string, string>; marker: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-trust-scripts-'));
  const home = await mkdtemp(join(tmpdir(), 'sluice-trust-scripts-home-'));
  return { dir, env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), SLUICE_TRUSTED_HASH: '' }, marker: join(home, 'ran') };
}

/** A shell script that records which version of itself ran, and answers the delegate. */
const aiScript = (marker: string, version: string) => `#!/bin/sh\necho ${version} > ${JSON.stringify(marker)}\necho done\n`;

const refused = (r: { code: number | null; stderr: string }, file: RegExp) => {
  assert.equal(r.code, 2, r.stderr);
  assert.match(r.stderr, /WORKSPACE_UNTRUSTED/);
  assert.match(r.stderr, file);
};

const hasScript = spawnSync('script', ['--version']).status === 0;

/** `sluice trust` answered "y" on a pseudo-terminal, as a person does. */
function trustOnTerminal(dir: string, env: Record<string, string>): string {
  const tty = spawnSync(
    'script',
    ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(cliBundle())} --cwd ${JSON.stringify(dir)} trust`, '/dev/null'],
    {
      input: 'y\n',
      env: { ...process.env, ...env, NO_COLOR: '1' },
      encoding: 'utf8',
      timeout: 60_000,
    },
  );
  assert.match(tty.stdout, /trusted; recorded in/, tty.stdout + tty.stderr);
  return tty.stdout;
}

/**
 * Trusts the project as it is now: on a terminal when there is `script` (the refusal then names what
 * changed against the stored record), else with the CI hash (which only says it does not match).
 */
async function trustNow(dir: string, env: Record<string, string>): Promise<{ env: Record<string, string>; names: boolean }> {
  if (!hasScript) return { env: { ...env, ...(await trustedEnv(dir)) }, names: false };
  trustOnTerminal(dir, env);
  return { env, names: true };
}

/** Refused, and (against a stored record) naming the changed file as `file, run by SETTING, changed`. */
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const refusedNaming = (r: { code: number | null; stderr: string }, names: boolean, file: string, setting: string) =>
  refused(
    r,
    names ? new RegExp(`UNTRUSTED: ${escape(file)}: (.*, )?run by ${escape(setting)}, changed since you trusted it`) : /SLUICE_TRUSTED_HASH does not match/,
  );

describe('trust covers the files a trusted setting runs', () => {
  it('trust, edit ./ai.sh, run: refused naming ai.sh; trust again: the new script runs', {
    skip: !hasScript && 'util-linux `script` (a pseudo-terminal for `sluice trust`) is not installed',
  }, async () => {
    const { dir, env, marker } = await project();
    writeFileSync(join(dir, 'ai.sh'), aiScript(marker, 'v1'));
    chmodSync(join(dir, 'ai.sh'), 0o755);
    writeFileSync(join(dir, 'sluice.config.yaml'), 'delegates:\n  shell:\n    command: ./ai.sh\n');
    const shown = await runSluice(dir, ['trust', '--show'], env);
    assert.match(shown.stdout, /\+ ai\.sh run by delegates\.shell: ai\.sh/, 'the review lists the script itself');
    const review = trustOnTerminal(dir, env);
    assert.match(review, /ai\.sh run by delegates\.shell/);
    const run = ['delegate', '--to', 'shell', '--mode', 'write', 'hello'];
    const first = await runSluice(dir, run, env);
    assert.equal(first.code, 0, first.stderr);
    assert.equal(readFileSync(marker, 'utf8').trim(), 'v1');

    writeFileSync(join(dir, 'ai.sh'), aiScript(marker, 'v2-agent'));
    const edited = await runSluice(dir, run, env);
    refused(edited, /WORKSPACE_UNTRUSTED: ai\.sh: run by delegates\.shell, changed since you trusted it/);
    assert.equal(readFileSync(marker, 'utf8').trim(), 'v1', 'the edited script did not run');
    const json = JSON.parse((await runSluice(dir, [...run, '--json'], env)).stdout) as {
      error: { file: string; data: { changes: { kind: string; file: string }[] } };
    };
    assert.equal(json.error.file, 'ai.sh');
    assert.deepEqual(json.error.data.changes, [{ kind: 'changed', file: 'ai.sh', what: 'run by delegates.shell', shows: 'ai.sh' }]);

    trustOnTerminal(dir, env);
    assert.equal((await runSluice(dir, run, env)).code, 0);
    assert.equal(readFileSync(marker, 'utf8').trim(), 'v2-agent', 'trusted again, the new script runs');
  });

  it("the script operand of a known interpreter is covered: a command gate's `node tools/check.mjs` and `python3 x.py`", async () => {
    const { dir, env, marker } = await project();
    assert.equal((await runSluice(dir, ['init'], env)).code, 0);
    mkdirSync(join(dir, 'tools'));
    writeFileSync(join(dir, 'tools/check.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'check v1');\n`);
    writeFileSync(join(dir, 'x.py'), 'print("ok")\n');
    const profile = join(dir, '.sdlc', 'profile.yaml');
    writeFileSync(
      profile,
      `${readFileSync(profile, 'utf8')}\nsluice:\n  gates:\n    - {id: check, type: command, phases: [0], argv: [node, tools/check.mjs]}\n    - {id: py, type: command, phases: [0], argv: [python3, -u, x.py]}\n`,
    );
    assert.equal((await runSluice(dir, ['refreeze', '.sdlc/profile.yaml', '--reason', 'gates'], env)).code, 0);
    const shown = (await runSluice(dir, ['trust', '--show'], env)).stdout;
    assert.match(shown, /tools\/check\.mjs run by sluice\.gates\.check: tools\/check\.mjs/);
    assert.match(shown, /x\.py run by sluice\.gates\.py: x\.py/);
    const { env: trusted, names } = await trustNow(dir, env);
    await runSluice(dir, ['gate'], trusted);
    assert.equal(readFileSync(marker, 'utf8'), 'check v1', 'trusted, the gate ran its script');

    writeFileSync(join(dir, 'tools/check.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'agent');\n`);
    refusedNaming(await runSluice(dir, ['gate'], trusted), names, 'tools/check.mjs', 'sluice.gates.check');
    assert.equal(readFileSync(marker, 'utf8'), 'check v1');
    writeFileSync(join(dir, 'tools/check.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'check v1');\n`);
    writeFileSync(join(dir, 'x.py'), 'import os\nprint("edited")\n');
    refusedNaming(await runSluice(dir, ['gate'], trusted), names, 'x.py', 'sluice.gates.py');
  });

  it('a script outside the project is hashed too; a missing one is shown as missing, and creating it needs trust', async () => {
    const { dir, env, marker } = await project();
    const outside = await mkdtemp(join(tmpdir(), 'sluice-trust-outside-'));
    const script = join(outside, 'agent.sh');
    writeFileSync(script, aiScript(marker, 'outside v1'));
    chmodSync(script, 0o755);
    writeFileSync(join(dir, 'sluice.config.yaml'), `delegates:\n  shell:\n    command: ${script}\n  codex:\n    command: ./not-there-yet.sh\n`);
    const shown = await runSluice(dir, ['trust', '--show', '--json'], env);
    assert.equal(shown.code, 0, shown.stderr);
    const subjects = (JSON.parse(shown.stdout) as { subjects: { file: string; what: string }[] }).subjects.map((s) => `${s.file} ${s.what}`);
    assert.ok(subjects.includes(`${script} run by delegates.shell`), subjects.join('\n'));
    assert.ok(subjects.includes('not-there-yet.sh run by delegates.codex'), 'a missing script is listed, not a crash');
    const { env: trusted, names } = await trustNow(dir, env);
    const run = ['delegate', '--to', 'shell', '--mode', 'write', 'hello'];
    assert.equal((await runSluice(dir, run, trusted)).code, 0);
    writeFileSync(script, aiScript(marker, 'outside v2'));
    refusedNaming(await runSluice(dir, run, trusted), names, script, 'delegates.shell');
    assert.equal(readFileSync(marker, 'utf8').trim(), 'outside v1');
    writeFileSync(script, aiScript(marker, 'outside v1'));
    writeFileSync(join(dir, 'not-there-yet.sh'), '#!/bin/sh\necho planted\n');
    refusedNaming(await runSluice(dir, ['delegate', '--to', 'codex', '--mode', 'write', 'hello'], trusted), names, 'not-there-yet.sh', 'delegates.codex');
  });

  it('`npm run lint` covers the package.json script and the file it runs', async () => {
    const { dir, env, marker } = await project();
    assert.equal((await runSluice(dir, ['init'], env)).code, 0);
    mkdirSync(join(dir, 'tools'));
    writeFileSync(join(dir, 'tools/lint.mjs'), `import { writeFileSync } from 'node:fs';\nwriteFileSync(${JSON.stringify(marker)}, 'lint');\n`);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { lint: 'node tools/lint.mjs' } }));
    const profile = join(dir, '.sdlc', 'profile.yaml');
    writeFileSync(profile, `${readFileSync(profile, 'utf8')}\nsluice:\n  gates:\n    - {id: lint, type: command, phases: [0], argv: [npm, run, lint]}\n`);
    assert.equal((await runSluice(dir, ['refreeze', '.sdlc/profile.yaml', '--reason', 'lint'], env)).code, 0);
    const shown = (await runSluice(dir, ['trust', '--show'], env)).stdout;
    assert.match(shown, /package\.json run by sluice\.gates\.lint: scripts\.lint: node tools\/lint\.mjs/);
    assert.match(shown, /tools\/lint\.mjs run by sluice\.gates\.lint/);
    const { env: trusted, names } = await trustNow(dir, env);
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'p', scripts: { lint: 'node -e "process.exit(0)"' } }));
    refusedNaming(await runSluice(dir, ['gate'], trusted), names, 'package.json', 'sluice.gates.lint: scripts.lint');
    assert.equal(existsSync(marker), false);
  });
});
