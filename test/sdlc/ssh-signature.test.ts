import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseAllowedSigners } from '../../plugins/sdlc/signing/allowed-signers.ts';
import { sshFindPrincipals, sshSign, sshVerify } from '../../plugins/sdlc/signing/ssh-signature.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { sshKeygenMissing, throwawayKey, type ThrowawayKey } from '../helpers/ssh-keys.ts';

describe('SSH signatures through ssh-keygen -Y', { skip: sshKeygenMissing }, () => {
  const host = createNodeHost();
  let dir: string;
  let alice: ThrowawayKey;
  let mallory: ThrowawayKey;
  let signers: string;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'sluice-sign-'));
    alice = throwawayKey(dir, 'alice', 'alice@example.com');
    mallory = throwawayKey(dir, 'mallory', 'mallory@example.com');
    signers = join(dir, 'allowed_signers');
    await writeFile(signers, `# who may sign\n${alice.signersLine}\n`);
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it('a signature by a listed key verifies and names its principal', async () => {
    const signature = await sshSign(host, { keyFile: alice.keyFile, text: 'approve G7 at 2026-01-01' });
    assert.match(signature, /^-----BEGIN SSH SIGNATURE-----/);
    const outcome = await sshVerify(host, { allowedSigners: signers, text: 'approve G7 at 2026-01-01', signature, tempDir: dir });
    assert.equal(outcome.status, 'valid');
    assert.equal(outcome.status === 'valid' && outcome.principal, 'alice@example.com');
    assert.match(outcome.status === 'valid' ? (outcome.fingerprint ?? '') : '', /^SHA256:/);
    assert.deepEqual(await sshFindPrincipals(host, { allowedSigners: signers, signature, tempDir: dir }), ['alice@example.com']);
  });

  it('changed text is invalid', async () => {
    const signature = await sshSign(host, { keyFile: alice.keyFile, text: 'approve G7' });
    const outcome = await sshVerify(host, { allowedSigners: signers, text: 'approve G8', signature, tempDir: dir });
    assert.equal(outcome.status, 'invalid');
  });

  it('a good signature by a key outside allowed_signers is an unknown signer', async () => {
    const signature = await sshSign(host, { keyFile: mallory.keyFile, text: 'approve G7' });
    const outcome = await sshVerify(host, { allowedSigners: signers, text: 'approve G7', signature, tempDir: dir });
    assert.equal(outcome.status, 'unknown-signer');
  });

  it('a signature made for another namespace (a git commit signature) does not count', async () => {
    const signature = await sshSign(host, { keyFile: alice.keyFile, text: 'approve G7', namespace: 'git' });
    assert.equal((await sshVerify(host, { allowedSigners: signers, text: 'approve G7', signature, tempDir: dir })).status, 'invalid');
  });

  it('garbage is invalid, not an error', async () => {
    assert.equal((await sshVerify(host, { allowedSigners: signers, text: 'x', signature: 'hello' })).status, 'invalid');
    const broken = '-----BEGIN SSH SIGNATURE-----\nAAAA\n-----END SSH SIGNATURE-----';
    assert.equal((await sshVerify(host, { allowedSigners: signers, text: 'x', signature: broken, tempDir: dir })).status, 'invalid');
  });

  it('a missing key is SIGNING_FAILED naming the key', async () => {
    await assert.rejects(
      sshSign(host, { keyFile: join(dir, 'nope'), text: 'x' }),
      (e: Error & { code?: string }) => e.code === 'SIGNING_FAILED' && e.message.includes('nope'),
    );
  });
});

describe('allowed_signers format', () => {
  it('reads principals, options and keys, skipping comments', () => {
    const text = '# team\nana@x.org,ana@y.org ssh-ed25519 AAAAC3Nza1 ana\n\nbo@x.org namespaces="git,sluice" ssh-rsa AAAAB3Nz==\n';
    const s = parseAllowedSigners(text, 'allowed_signers');
    assert.deepEqual(
      s.map((e) => e.principals),
      [['ana@x.org', 'ana@y.org'], ['bo@x.org']],
    );
    assert.equal(s[1]!.options, 'namespaces="git,sluice"');
    assert.equal(s[1]!.keyType, 'ssh-rsa');
  });

  it('names the file and line of a malformed entry', () => {
    assert.throws(
      () => parseAllowedSigners('ana@x.org ssh-ed25519 AAAA\nbo@x.org not-a-key\n', '.sdlc/allowed_signers'),
      (e: Error & { code?: string; file?: string; field?: string }) =>
        e.code === 'SIGNERS_INVALID' && e.file === '.sdlc/allowed_signers' && e.field === 'line 2',
    );
  });
});
