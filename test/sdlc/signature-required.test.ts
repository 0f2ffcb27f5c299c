import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse } from 'yaml';
import type { SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import { sshKeygenMissing, throwawayKey, type ThrowawayKey } from '../helpers/ssh-keys.ts';
import { sdlcKernel, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

let alice: ThrowawayKey;
let signers: string;

const readState = async (dir: string) => parse(await readFile(join(dir, '.sdlc', 'state.yaml'), 'utf8')) as SdlcState;

async function advance(dir: string, ...flags: string[]) {
  await writeCurrentArtifacts(await sdlcKernel(dir));
  const review = JSON.parse((await runSluice(dir, ['next', '--json'])).stdout) as { unapproved: { id: string }[] };
  return runSluice(dir, ['next', ...review.unapproved.flatMap(({ id }) => ['--approve', id]), ...flags, '--confirmed', '--json']);
}

describe('a profile that requires signed approvals (enterprise pack)', { skip: sshKeygenMissing }, () => {
  before(async () => {
    const keys = await tempDir('sluice-keys-');
    alice = throwawayKey(keys, 'alice', 'alice@example.com');
    signers = join(keys, 'allowed_signers');
    await writeFile(signers, `${alice.signersLine}\n`);
  });

  it('refuses an unsigned advance and accepts a signed one', async () => {
    const dir = await tempDir();
    assert.equal((await runSluice(dir, ['init', '--profile', 'enterprise', '--type', 'service', '--allowed-signers', signers])).code, 0);
    const unsigned = await advance(dir, '--signed-by', 'Dana Ruiz (CTO)');
    assert.equal(unsigned.code, 1);
    assert.match(unsigned.stdout + unsigned.stderr, /SIGNATURE_REQUIRED/);
    assert.equal((await readState(dir)).history.length, 0, 'nothing was written');
    const signed = await advance(dir, '--sign', alice.keyFile);
    assert.equal(signed.code, 0, signed.stderr);
    const skip = await runSluice(dir, ['skip', '--justification', 'done elsewhere', '--confirmed']);
    assert.equal(skip.code, 1);
    assert.match(skip.stderr, /SIGNATURE_REQUIRED/);
    const audit = await runSluice(dir, ['audit', '--json']);
    assert.equal(audit.code, 0, audit.stdout);
    assert.equal((JSON.parse(audit.stdout) as { signatures: { counts: { verified: number } } }).signatures.counts.verified, 1);
  });
});
