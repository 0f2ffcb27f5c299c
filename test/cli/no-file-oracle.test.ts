import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { mkdtemp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { runSluice } from '../hardening/cli-bundle.ts';

/**
 * sluice's errors are not a way to read files. An agent allowed only sluice commands pointed
 * `audit --compare` and `profile validate` at a .env and a git credential file and got their
 * contents back in the error. Now a file that is not the command's format is refused without
 * echoing it, values are quoted only when short and from inside the project, and never from outside.
 */
const ENV_FILE = 'DB_PASSWORD=hunter2-correct-horse\nSTRIPE=sk_live_FAKE0123456789abcdef\nplain_note=meet-at-noon-by-the-dock\n';
const CREDENTIAL = 'https://alice:gitpw-5up3r-s3cr3t@github.example.com\n';
/** Any fragment of these in any output is a leak. */
const FRAGMENTS = [
  'hunter2',
  'correct-horse',
  'sk_live',
  'FAKE0123',
  'meet-at-noon',
  'gitpw',
  's3cr3t',
  'alice',
  'github.example',
  'cobol-mainframe-nightly-batch',
  'sekrit-value',
];
const leaked = (text: string) => FRAGMENTS.filter((f) => text.includes(f));

async function project(): Promise<{ dir: string; outside: string }> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-oracle-'));
  const outside = await mkdtemp(join(tmpdir(), 'sluice-oracle-home-'));
  assert.equal((await runSluice(dir, ['init'])).code, 0);
  writeFileSync(join(dir, '.env'), ENV_FILE);
  writeFileSync(join(outside, '.git-credentials'), CREDENTIAL);
  return { dir, outside };
}

describe('no file oracle: errors never echo the files they read', () => {
  for (const [label, target] of [
    ['a .env in the project', '.env'],
    ['a git credential file outside it', 'OUTSIDE/.git-credentials'],
  ] as const) {
    it(`audit --compare and profile validate refuse ${label} without quoting it`, async () => {
      const { dir, outside } = await project();
      const file = target.replace('OUTSIDE', outside);
      for (const args of [
        ['audit', '--compare', file],
        ['audit', '--compare', file, '--json'],
        ['profile', 'validate', file],
        ['profile', 'validate', file, '--json'],
      ]) {
        const r = await runSluice(dir, args);
        assert.equal(r.code, 2, `${args.join(' ')}: ${r.stdout}${r.stderr}`);
        assert.deepEqual(leaked(r.stdout + r.stderr), [], `${args.join(' ')} echoed the file: ${r.stdout}${r.stderr}`);
      }
      const validate = await runSluice(dir, ['profile', 'validate', file]);
      assert.match(validate.stdout, /not a YAML mapping .*nothing of it is shown/);
    });
  }

  it('a YAML file outside the project gets field names and positions, never its values; inside, short values are quoted', async () => {
    const { dir, outside } = await project();
    const profile = (language: string) =>
      `version: "1.0"\ncompany: {name: x, profile_id: acme}\nstack: {backend: {language: ${language}, framework: x}}\nquality: {coverage_minimum: 80}\ntoken: sekrit-value\n`;
    writeFileSync(join(outside, 'profile.yaml'), profile('cobol-mainframe-nightly-batch'));
    const away = await runSluice(dir, ['profile', 'validate', join(outside, 'profile.yaml')]);
    assert.equal(away.code, 2);
    assert.match(away.stdout, /:3:\d+ +stack\.backend\.language: Invalid type: Expected \(.*\) but received a string \(29 characters\)/);
    assert.deepEqual(leaked(away.stdout + away.stderr), []);
    const state = join(outside, 'state.yaml');
    writeFileSync(state, 'project: {name: sekrit-value}\ncurrent_phase: cobol-mainframe-nightly-batch\n');
    const compared = await runSluice(dir, ['audit', '--compare', state, '--json']);
    assert.equal(compared.code, 2);
    assert.deepEqual(leaked(compared.stdout), [], compared.stdout);

    writeFileSync(join(dir, 'p.yaml'), profile('cobol'));
    const here = await runSluice(dir, ['profile', 'validate', 'p.yaml']);
    assert.match(here.stdout, /stack\.backend\.language: Invalid type: .* but received "cobol"/, 'a short value from the project helps the user fix it');
    assert.equal(await readFile(join(dir, '.env'), 'utf8'), ENV_FILE, 'nothing was written');
  });
});
