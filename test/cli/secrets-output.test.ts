import assert from 'node:assert/strict';
import { chmodSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSluice } from '../hardening/cli-bundle.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';

/**
 * Secrets through the built CLI, in the forms that slipped past redaction: a password holding `"`
 * and `\` (escaped by --json), a connection-string password nobody put in a variable, and a
 * command gate printing both — whose row is stored in .sdlc/state.yaml.
 */
const QUOTED = 'pa"ss\\w0rd-Zq81';
const URL_PW = 'c0nn-str1ng-pw';
const CONN = `postgres://app:${URL_PW}@db.internal:5432/app`;
const node = JSON.stringify(process.execPath);

async function project(): Promise<{ dir: string; env: Record<string, string> }> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-secret-out-'));
  const home = await mkdtemp(join(tmpdir(), 'sluice-secret-home-'));
  return { dir, env: { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), DB_PASSWORD: QUOTED, SLUICE_TRUSTED_HASH: '' } };
}

const leaks = (text: string) => [QUOTED, JSON.stringify(QUOTED).slice(1, -1), URL_PW].filter((s) => text.includes(s));

describe('secrets in every form are redacted', () => {
  it('--json output of a delegate answer quoting a password with " and \\ and a connection string holds neither', async () => {
    const { dir, env } = await project();
    writeFileSync(join(dir, 'say.mjs'), `#!/usr/bin/env node\nconsole.log('connect with ' + process.env.DB_PASSWORD + ' to ${CONN}');\n`);
    chmodSync(join(dir, 'say.mjs'), 0o755);
    writeFileSync(join(dir, 'sluice.config.yaml'), 'delegates:\n  shell:\n    command: ./say.mjs\n    retries: 0\n');
    const run = { ...env, ...(await trustedEnv(dir)) };
    const json = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', '--json', 'hi'], run);
    assert.equal(json.code, 0, json.stderr);
    assert.deepEqual(leaks(json.stdout + json.stderr), []);
    assert.match(JSON.parse(json.stdout).text, /connect with \[REDACTED:DB_PASSWORD\] to postgres:\/\/app:\[REDACTED:url-password\]@db\.internal/);
    const human = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', 'hi'], run);
    assert.deepEqual(leaks(human.stdout + human.stderr), []);
  });

  it('a command gate that prints secrets: its row in state.yaml, --json and the human output hold none', async () => {
    const { dir, env } = await project();
    assert.equal((await runSluice(dir, ['init'], env)).code, 0);
    const profile = join(dir, '.sdlc', 'profile.yaml');
    const script = `console.error('auth failed for ' + process.env.DB_PASSWORD + ' at ${CONN}'); process.exit(1)`;
    writeFileSync(
      profile,
      `${readFileSync(profile, 'utf8')}\nsluice:\n  gates:\n    - {id: db-check, type: command, phases: [0], argv: [${node}, -e, ${JSON.stringify(script)}]}\n`,
    );
    assert.equal((await runSluice(dir, ['refreeze', '.sdlc/profile.yaml', '--reason', 'db-check gate'], env)).code, 0);
    const run = { ...env, ...(await trustedEnv(dir)) };
    const json = await runSluice(dir, ['gate', '--json'], run);
    assert.equal(json.code, 1, json.stderr);
    assert.deepEqual(leaks(json.stdout + json.stderr), []);
    const row = (JSON.parse(json.stdout) as { results: { gate: string; message: string }[] }).results.find((r) => r.gate === 'db-check');
    assert.match(row?.message ?? '', /auth failed for \[REDACTED:DB_PASSWORD\] at postgres:\/\/app:\[REDACTED:url-password\]@/);
    const state = readFileSync(join(dir, '.sdlc', 'state.yaml'), 'utf8');
    assert.match(state, /db-check/);
    assert.deepEqual(leaks(state), [], 'the stored row is redacted');
    const human = await runSluice(dir, ['gate'], run);
    assert.deepEqual(leaks(human.stdout + human.stderr), []);
  });
});
