import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSecretRedactor, createStreamRedactor } from '../../core/secrets/redact-secrets.ts';

const env = { GITHUB_TOKEN: 'ghs_supersecretvalue123', DB_PASSWORD: 'hunter2hunter2', MY_API_KEY: 'k-0123456789abcdef', HOME: '/home/me', SHORT_KEY: 'abc', EDITOR: 'vim' };

describe('secret redaction', () => {
  it('replaces values of secret-named environment variables, naming the variable', () => {
    const r = createSecretRedactor(env);
    const out = r.redact('token=ghs_supersecretvalue123 pw=hunter2hunter2 key k-0123456789abcdef home=/home/me');
    assert.equal(out, 'token=[REDACTED:GITHUB_TOKEN] pw=[REDACTED:DB_PASSWORD] key [REDACTED:MY_API_KEY] home=/home/me');
  });

  it('leaves short values and non-secret names alone', () => {
    const r = createSecretRedactor(env);
    assert.equal(r.redact('abc vim'), 'abc vim');
  });

  it('replaces API-key shaped strings even when no variable holds them', () => {
    const r = createSecretRedactor({});
    const text = 'keys: sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAA AKIAIOSFODNN7EXAMPLE ghp_0123456789abcdefghijklmnopqrstuvwxyzAB Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123';
    const out = r.redact(text);
    assert.doesNotMatch(out, /sk-ant-api03|AKIAIOSFODNN7EXAMPLE|ghp_0123|abcdefghijklmnopqrstuvwxyz0123/);
    assert.match(out, /\[REDACTED:anthropic-key\]/);
    assert.match(out, /\[REDACTED:aws-access-key\]/);
  });

  it('catches a secret split across stream chunks', () => {
    const redactor = createSecretRedactor(env);
    const stream = createStreamRedactor(redactor);
    const text = `${'x'.repeat(3000)}\nthe token is ghs_supersecretvalue123 ok\n${'y'.repeat(3000)}`;
    let out = '';
    for (let i = 0; i < text.length; i += 7) out += stream.push(text.slice(i, i + 7));
    out += stream.flush();
    assert.equal(out, text.replace('ghs_supersecretvalue123', '[REDACTED:GITHUB_TOKEN]'));
  });

  it('keeps a private key block whole across chunks', () => {
    const stream = createStreamRedactor(createSecretRedactor({}));
    const pem = `-----BEGIN RSA PRIVATE KEY-----\n${'A'.repeat(64)}\n`.repeat(1) + `${'B'.repeat(64)}\n`.repeat(30) + '-----END RSA PRIVATE KEY-----';
    const text = `${'z'.repeat(2000)}\n${pem}\ntail\n`;
    let out = '';
    for (let i = 0; i < text.length; i += 100) out += stream.push(text.slice(i, i + 100));
    out += stream.flush();
    assert.doesNotMatch(out, /AAAA|BBBB/);
    assert.match(out, /\[REDACTED:private-key\]/);
  });
});
