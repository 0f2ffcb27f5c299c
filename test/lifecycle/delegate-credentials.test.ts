import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { createSecretRedactor } from '../../core/index.ts';
import { delegateKernel, tempProject } from '../delegates/delegate-kernel.ts';

const GRANT = 'eyJtb2RlIjoiY2kifQ.0123456789abcdef0123456789abcdef';
const SHOW_ENV =
  "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>process.stdout.write(JSON.stringify({grant:process.env.SLUICE_COMMIT_GRANT??null,key:process.env.SLUICE_SIGNING_KEY??null,trusted:process.env.SLUICE_TRUSTED_HASH??null,path:Boolean(process.env.PATH),prompt:d})))";

describe("sluice's credentials and the agent", () => {
  it('a delegate runs without SLUICE_COMMIT_GRANT and the other sluice credentials; the transcript never shows their values', async () => {
    const saved = { grant: process.env.SLUICE_COMMIT_GRANT, key: process.env.SLUICE_SIGNING_KEY, trusted: process.env.SLUICE_TRUSTED_HASH };
    process.env.SLUICE_COMMIT_GRANT = GRANT;
    process.env.SLUICE_SIGNING_KEY = '/home/op/.ssh/sluice_signing';
    process.env.SLUICE_TRUSTED_HASH = 'a'.repeat(64);
    try {
      const root = await tempProject();
      const k = await delegateKernel(root, {
        delegates: { shell: { command: process.execPath, args: ['-e', SHOW_ENV, '--'], env: { SLUICE_COMMIT_GRANT: GRANT } } },
      });
      // Also when the user's delegate settings pass it on explicitly.
      const r = await k.runDelegate('shell', { prompt: `the grant is ${GRANT}`, mode: 'analysis', cwd: root, timeoutMs: 120_000 });
      assert.equal(r.status, 'ok', r.error ?? '');
      const seen = JSON.parse(r.text);
      assert.deepEqual({ grant: seen.grant, key: seen.key, trusted: seen.trusted, path: seen.path }, { grant: null, key: null, trusted: null, path: true });
      const transcript = await readFile(r.transcriptPath, 'utf8');
      assert.ok(!transcript.includes(GRANT), 'the grant value is not in the transcript');
      assert.match(transcript, /\[REDACTED:SLUICE_COMMIT_GRANT\]/);
    } finally {
      for (const [name, value] of [
        ['SLUICE_COMMIT_GRANT', saved.grant],
        ['SLUICE_SIGNING_KEY', saved.key],
        ['SLUICE_TRUSTED_HASH', saved.trusted],
      ] as const) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  });

  it('the redactor hides SLUICE_COMMIT_GRANT although its name does not look like a secret', () => {
    assert.equal(createSecretRedactor({ SLUICE_COMMIT_GRANT: GRANT }).redact(`x ${GRANT} y`), 'x [REDACTED:SLUICE_COMMIT_GRANT] y');
  });
});
