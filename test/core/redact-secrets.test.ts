import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createSecretRedactor, createStreamRedactor, isSecretName } from '../../core/secrets/redact-secrets.ts';

const env = {
  GITHUB_TOKEN: 'ghs_supersecretvalue123',
  DB_PASSWORD: 'hunter2hunter2',
  MY_API_KEY: 'k-0123456789abcdef',
  HOME: '/home/me',
  SHORT_KEY: 'abc',
  EDITOR: 'vim',
};

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
    const text =
      'keys: sk-ant-api03-AAAAAAAAAAAAAAAAAAAAAAAAAA AKIAIOSFODNN7EXAMPLE ghp_0123456789abcdefghijklmnopqrstuvwxyzAB Authorization: Bearer abcdefghijklmnopqrstuvwxyz0123';
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

describe('secret redaction in every form output takes', () => {
  it('a secret with a quote or a backslash is caught inside JSON, escaped once or twice, and URL-encoded', () => {
    const secret = 'pa"ss\\word-12345';
    const r = createSecretRedactor({ DB_PASSWORD: secret });
    const once = JSON.stringify({ message: `login with ${secret} failed` });
    assert.equal(once.includes('pa\\"ss\\\\word-12345'), true, 'the escaped form is what --json prints');
    assert.equal(r.redact(once), JSON.stringify({ message: 'login with [REDACTED:DB_PASSWORD] failed' }));
    const twice = JSON.stringify({ raw: once });
    assert.doesNotMatch(r.redact(twice), /pa.{0,6}ss.{0,6}word/);
    assert.equal(r.redact(`?p=${encodeURIComponent(secret)}`), '?p=[REDACTED:DB_PASSWORD]');
  });

  it('passwords in URLs are replaced, user and host kept; ports, paths and e-mail addresses are not passwords', () => {
    const r = createSecretRedactor({});
    assert.equal(
      r.redact('DATABASE_URL=postgres://app:s3cr3t-pw@db.internal:5432/app'),
      'DATABASE_URL=postgres://app:[REDACTED:url-password]@db.internal:5432/app',
    );
    assert.equal(r.redact('"redis://:hunter2hunter2@cache:6379"'), '"redis://:[REDACTED:url-password]@cache:6379"');
    assert.equal(r.redact('mongodb+srv://u:p@ss@cluster0.example.net/db'), 'mongodb+srv://u:[REDACTED:url-password]@cluster0.example.net/db');
    for (const plain of ['https://example.com:8080/x?to=a@b.com', 'mail me at dev@example.com', 'see http://host:3000/']) assert.equal(r.redact(plain), plain);
  });

  it('every variable whose name marks a secret counts, in any spelling; paths and sockets do not', () => {
    const names = [
      'SIGNING_KEY',
      'SMTP_PASS',
      'PROXY_AUTH',
      'NPM_AUTHTOKEN',
      'npm_config__authToken',
      'GITHUBTOKEN',
      'SLACK_WEBHOOK_URL',
      'SENTRY_DSN',
      'MY_APIKEY',
      'AWS_SECRET_ACCESS_KEY',
      'GH_PAT',
      'DB_PASSPHRASE',
      'SESSION_COOKIE',
      'clientSecret',
      'TOKEN_FOR_CI',
    ];
    for (const name of names) assert.equal(isSecretName(name), true, name);
    for (const name of [
      'PWD',
      'OLDPWD',
      'HOME',
      'PATH',
      'SSH_AUTH_SOCK',
      'EDITOR',
      'KEYBOARD_LAYOUT',
      'PASSENGER_COUNT',
      'SLUICE_TRUSTED_HASH',
      'KEY_TYPE',
      'AUTH_PROVIDER',
      'SESSION_MANAGER',
    ])
      assert.equal(isSecretName(name), false, name);
    const r = createSecretRedactor({ NPM_AUTHTOKEN: 'npm_abcdefgh12345678', PWD: '/work/project-folder' });
    assert.equal(r.redact('token npm_abcdefgh12345678 in /work/project-folder'), 'token [REDACTED:NPM_AUTHTOKEN] in /work/project-folder');
  });
});
