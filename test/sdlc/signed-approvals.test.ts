import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { sshSign } from '../../plugins/sdlc/signing/ssh-signature.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { transitionStatement } from '../../plugins/sdlc/signing/transition-statement.ts';
import type { SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import { sshKeygenMissing, throwawayKey, type ThrowawayKey } from '../helpers/ssh-keys.ts';
import { sdlcKernel, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

interface SignatureCheck {
  index: number;
  status: string;
  signer: string | null;
  claimed: string | null;
  detail?: string;
}
interface AuditDoc {
  signatures: { entries: SignatureCheck[]; counts: Record<string, number>; problems: number };
}

let keys: string;
let alice: ThrowawayKey;
let mallory: ThrowawayKey;
let signers: string;

const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');
const readState = async (dir: string) => parse(await readFile(statePath(dir), 'utf8')) as SdlcState;

/** Approves every manual gate of the current phase and confirms, with extra flags (--sign, --signed-by). */
async function advance(dir: string, ...flags: string[]) {
  await writeCurrentArtifacts(await sdlcKernel(dir));
  const review = JSON.parse((await runSluice(dir, ['next', '--json'])).stdout) as { unapproved: { id: string }[] };
  return runSluice(dir, ['next', ...review.unapproved.flatMap(({ id }) => ['--approve', id]), ...flags, '--confirmed', '--json']);
}

async function audit(dir: string): Promise<{ code: number | null; doc: AuditDoc; human: string }> {
  const json = await runSluice(dir, ['audit', '--json']);
  const human = await runSluice(dir, ['audit']);
  return { code: json.code, doc: JSON.parse(json.stdout) as AuditDoc, human: human.stdout };
}

/** Runs `change` on state.yaml, then puts the original back. */
async function withEditedState(dir: string, change: (s: SdlcState) => void | Promise<void>, check: () => Promise<void>) {
  const original = await readFile(statePath(dir), 'utf8');
  const state = parse(original) as SdlcState;
  await change(state);
  await writeFile(statePath(dir), stringify(state));
  try {
    await check();
  } finally {
    await writeFile(statePath(dir), original);
  }
}

describe('approvals signed with SSH keys (built CLI)', { skip: sshKeygenMissing }, () => {
  let dir: string;

  before(async () => {
    keys = await tempDir('sluice-keys-');
    alice = throwawayKey(keys, 'alice', 'alice@example.com');
    mallory = throwawayKey(keys, 'mallory', 'mallory@example.com');
    signers = join(keys, 'allowed_signers');
    await writeFile(signers, `${alice.signersLine}\n`);
    dir = await tempDir();
    const init = await runSluice(dir, ['init', '--profile', 'starter', '--name', 'Claims', '--allowed-signers', signers]);
    assert.equal(init.code, 0, init.stderr);
  });

  it('freezes allowed_signers into .sdlc/ at init', async () => {
    assert.equal(await readFile(join(dir, '.sdlc/allowed_signers'), 'utf8'), `${alice.signersLine}\n`);
  });

  it('a signed approval names its verified signer, and audit verifies it', async () => {
    const r = await advance(dir, '--signed-by', 'Alice', '--sign', alice.keyFile);
    assert.equal(r.code, 0, r.stderr);
    const entry = (await readState(dir)).history[0]!;
    assert.equal(entry.signature?.principal, 'alice@example.com');
    const a = await audit(dir);
    assert.equal(a.code, 0, a.human);
    assert.equal(a.doc.signatures.entries[0]!.status, 'verified');
    assert.match(a.human, /alice@example\.com \(signed\)/);
  });

  it('an unsigned free-text name is shown as unverified', async () => {
    const r = await advance(dir, '--signed-by', 'Dana Ruiz (CTO)');
    assert.equal(r.code, 0, r.stderr);
    const a = await audit(dir);
    assert.equal(a.code, 0, 'unsigned entries are reported, not failed, when the profile does not require signatures');
    assert.equal(a.doc.signatures.entries[1]!.status, 'unsigned');
    assert.match(a.human, /phase 1, signed by Dana Ruiz \(CTO\) \(unverified\)/);
    assert.match(a.human, /#1 .* by Dana Ruiz \(CTO\) \(unverified\): unsigned/);
    const status = await runSluice(dir, ['status']);
    assert.match(status.stdout, /0 → 1 advance .* by alice@example\.com \(signed\)/);
    assert.match(status.stdout, /1 → 2 advance .* by Dana Ruiz \(CTO\) \(unverified\)/);
  });

  it('a key outside allowed_signers cannot sign, and nothing is written', async () => {
    const before = await readFile(statePath(dir), 'utf8');
    const r = await advance(dir, '--sign', mallory.keyFile);
    assert.equal(r.code, 2);
    assert.match(r.stdout + r.stderr, /SIGNING_FAILED.*not in \.sdlc\/allowed_signers/);
    assert.equal(await readFile(statePath(dir), 'utf8'), before);
  });

  it('audit reports a tampered signed entry as invalid', async () => {
    await withEditedState(
      dir,
      (s) => void (s.history[0]!.justification = 'approved by the board'),
      async () => {
        const a = await audit(dir);
        assert.equal(a.code, 1);
        assert.equal(a.doc.signatures.entries[0]!.status, 'invalid');
        assert.match(a.human, /#0 .*invalid/);
      },
    );
  });

  it('audit reports an entry signed by a key outside allowed_signers', async () => {
    await withEditedState(
      dir,
      async (s) => {
        const signature = await sshSign(createNodeHost(), { keyFile: mallory.keyFile, text: transitionStatement(s, s.history[1]!, 1) });
        s.history[1]!.signature = { principal: 'alice@example.com', namespace: 'sluice', signature };
      },
      async () => {
        const a = await audit(dir);
        assert.equal(a.code, 1);
        assert.equal(a.doc.signatures.entries[1]!.status, 'unknown-signer');
      },
    );
  });

  it('audit reports a signature replayed onto another entry', async () => {
    await withEditedState(
      dir,
      (s) => void (s.history[1]!.signature = s.history[0]!.signature),
      async () => {
        const a = await audit(dir);
        assert.equal(a.code, 1);
        assert.equal(a.doc.signatures.entries[0]!.status, 'verified');
        assert.equal(a.doc.signatures.entries[1]!.status, 'replayed');
        assert.match(a.human, /#1 .*replayed/);
      },
    );
  });
});
