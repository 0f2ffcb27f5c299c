import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tempDir } from '../sdlc/sdlc-fixture.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { runSluice } from './cli-bundle.ts';
import { repoRoot } from './repo-files.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';

/**
 * Secrets never leave sluice: a fake AI CLI echoes the values of secret-looking environment
 * variables (from the shell and from sluice.config's delegate env) and an `sk-ant-...` key, split
 * across writes, on stdout and stderr. Neither the transcript, nor --json output, nor human output,
 * nor an error line carries any of them.
 */
const X_TOKEN = 'xt-9f8e7d6c5b4a3210fedcba98';
const DB_PASSWORD = 'hunter2-correct-horse-battery';
const CONFIG_TOKEN = 'cfg-0a1b2c3d4e5f60718293';
const KEY = `sk-ant-api03-${'Q'.repeat(40)}-leak`;
const SECRETS = { X_TOKEN, DB_PASSWORD, CONFIG_TOKEN, 'the sk-ant key': KEY };

async function leakyProject(): Promise<string> {
  const dir = await tempDir('sluice-secrets-');
  const cli = join(repoRoot, 'test', 'fixtures', 'hardening', 'bin', 'leaky-cli.mjs');
  await writeFile(
    join(dir, 'sluice.config.yaml'),
    `delegates:\n  shell:\n    command: ${JSON.stringify(cli)}\n    retries: 0\n    env:\n      CONFIG_TOKEN: ${CONFIG_TOKEN}\n`,
  );
  return dir;
}

function assertClean(where: string, text: string): void {
  for (const [name, value] of Object.entries(SECRETS)) assert.ok(!text.includes(value), `${where} contains ${name}: ${text.slice(0, 600)}`);
}

/** Every transcript under .sluice/ (delegate runs, and a tune run's iteration-N/transcripts/). */
const transcripts = (dir: string) =>
  readdirSync(join(dir, '.sluice'), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.log'))
    .map((f) => readFileSync(join(dir, '.sluice', f), 'utf8'));

describe('secrets are redacted end to end', () => {
  it('a delegate answer echoing secrets: the transcript, --json output and human output hold none of them', async () => {
    const dir = await leakyProject();
    const env = { X_TOKEN, DB_PASSWORD, ...(await trustedEnv(dir)) };
    const json = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', '--json', 'say hi'], env);
    assert.equal(json.code, 0, json.stderr);
    assertClean('--json output', json.stdout);
    assertClean('stderr', json.stderr);
    const result = JSON.parse(json.stdout) as { text: string; transcriptPath: string };
    assert.match(result.text, /token=\[REDACTED:X_TOKEN\] config=\[REDACTED:CONFIG_TOKEN\] key=\[REDACTED:anthropic-key\] pass=\[REDACTED:DB_PASSWORD\]/);
    const transcript = readFileSync(result.transcriptPath, 'utf8');
    assertClean('the transcript', transcript);
    assert.match(transcript, /\[REDACTED:X_TOKEN\]/);
    assert.match(transcript, /warning: using \[REDACTED:X_TOKEN\] and \[REDACTED:anthropic-key\]/);

    const human = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', 'say hi'], env);
    assert.equal(human.code, 0, human.stderr);
    assertClean('human output', human.stdout + human.stderr);
    assert.match(human.stdout, /answer to "say hi"/);
    for (const text of transcripts(dir)) assertClean('a transcript', text);
  });

  it('a failing delegate whose error quotes the secrets: the error line and the --json error hold none of them', async () => {
    const dir = await leakyProject();
    const env = { X_TOKEN, DB_PASSWORD, LEAKY_EXIT: '1', ...(await trustedEnv(dir)) };
    const json = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', '--json', 'say hi'], env);
    assert.equal(json.code, 1);
    assertClean('--json output of a failure', json.stdout + json.stderr);
    const human = await runSluice(dir, ['delegate', '--to', 'shell', '--mode', 'analysis', 'say hi'], env);
    assert.equal(human.code, 1);
    assert.match(human.stderr, /DELEGATE_FAILED/);
    assertClean('the error line', human.stdout + human.stderr);
    for (const text of transcripts(dir)) assertClean('a transcript', text);
  });

  it('progress lines quoting a delegate error (sluice tune on the script backend) hold no key', async () => {
    const dir = await tempDir('sluice-secrets-');
    await writeFile(join(dir, 'script.yaml'), `version: 1\nrules:\n  - match: "role=execute"\n    reply: {status: error, error: "auth failed for ${KEY}"}\n`);
    await writeFile(join(dir, 'sluice.config.yaml'), 'delegates:\n  script: {file: script.yaml}\n');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(join(dir, '.claude', 'skills', 'w'), { recursive: true });
    await writeFile(join(dir, '.claude', 'skills', 'w', 'SKILL.md'), '---\nname: w\ndescription: a skill\n---\nDo it.\n');
    const run = await runSluice(dir, ['tune', 'w', '--scenario', 'write it', '-y', '--max-iterations', '1', ...scriptBackends]);
    assert.equal(run.code, 1, run.stderr);
    assert.match(run.stdout, /iteration 1: .*\[REDACTED:anthropic-key\]/);
    assertClean('tune output', run.stdout + run.stderr);
    const logs = transcripts(dir);
    assert.ok(logs.length > 0);
    for (const text of logs) assertClean('a transcript', text);
  });
});
