import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parse, stringify } from 'yaml';
import { sshSign } from '../../plugins/sdlc/signing/ssh-signature.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { transitionStatement } from '../../plugins/sdlc/signing/transition-statement.ts';
import type { SdlcState } from '../../plugins/sdlc/state/state-schema.ts';
import type { GateAudit } from '../../plugins/sdlc-views/model/gate-audit.ts';
import { sshKeygenMissing, throwawayKey, type ThrowawayKey } from '../helpers/ssh-keys.ts';
import { sdlcKernel, tempDir, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

/**
 * A person accepts the file-level `WAIVED:` lines the gates found (`sluice waivers accept`), each
 * recorded with who/why/file/phase and, with --sign, an SSH signature. Where the profile requires
 * signatures, a waiver lets its artifact through G2 only once accepted with a signature that
 * verifies; audit shows every waiver's acceptance and signature status. Run through the built CLI.
 */
const CONSTRAINTS = '.sdlc/artifacts/00-discovery/constraints.md';
const WAIVED = '# Constraints\n\n**WAIVED:** Dana Whitfield, budget is set by the client board in week 3\n\nBudget: TBD\n';

const statePath = (dir: string) => join(dir, '.sdlc', 'state.yaml');
const readState = async (dir: string) => parse(await readFile(statePath(dir), 'utf8')) as SdlcState;

interface GateRow {
  id?: string;
  gate: string;
  passed: boolean | null;
  message: string;
}
async function g2Row(dir: string): Promise<GateRow> {
  const r = await runSluice(dir, ['gate', '--json']);
  const rows = (JSON.parse(r.stdout) as { results: GateRow[] }).results;
  return rows.find((row) => row.id === 'G2:constraints.md')!;
}

async function audit(dir: string): Promise<{ code: number | null; doc: GateAudit & { signatures: { counts: Record<string, number> } }; text: string }> {
  const json = await runSluice(dir, ['audit', '--json']);
  return { code: json.code, doc: JSON.parse(json.stdout), text: (await runSluice(dir, ['audit'])).stdout };
}

/** A phase-0 project with every artifact complete except constraints.md, which is waived. */
async function waivedProject(...init: string[]): Promise<string> {
  const dir = await tempDir('sluice-waivers-');
  const r = await runSluice(dir, ['init', '--type', 'service', ...init]);
  assert.equal(r.code, 0, r.stderr);
  await writeCurrentArtifacts(await sdlcKernel(dir));
  await writeFile(join(dir, CONSTRAINTS), WAIVED);
  return dir;
}

describe('waivers accepted by a person, without signatures required (starter)', () => {
  it('the waiver passes G2 as before; accepting records who/why/file/phase, shown unverified in audit and status', async () => {
    const dir = await waivedProject('--profile', 'starter');
    assert.equal((await g2Row(dir)).passed, true, 'the starter profile does not require acceptance');
    let a = await audit(dir);
    assert.equal(a.doc.waivers[0]!.accepted, false);
    assert.match(a.text, /constraints\.md:3: waived by Dana Whitfield; "budget is set by the client board in week 3"; not accepted/);

    const accept = await runSluice(dir, [
      'waivers',
      'accept',
      'constraints.md',
      '--signed-by',
      'Dana Ruiz (CTO)',
      '--reason',
      'client board decides',
      '--json',
    ]);
    assert.equal(accept.code, 0, accept.stderr);
    const entry = (await readState(dir)).history.at(-1)!;
    assert.equal(entry.waiver_acceptance, true);
    assert.equal(entry.justification, 'client board decides');
    assert.deepEqual(
      entry.waivers!.map((w) => [w.result, w.file, w.line, w.who, w.why, w.markers]),
      [['G2:constraints.md', 'constraints.md', 3, 'Dana Whitfield', 'budget is set by the client board in week 3', ['TBD']]],
    );
    a = await audit(dir);
    assert.equal(a.code, 0);
    assert.deepEqual(
      a.doc.waivers.map((w) => [w.phase, w.file, w.accepted, w.acceptance?.by, w.acceptance?.signature]),
      [['0', 'constraints.md', true, 'Dana Ruiz (CTO)', 'unsigned']],
    );
    assert.match(a.text, /waived by Dana Whitfield; .*; accepted by Dana Ruiz \(CTO\) \(unverified\)/);
    assert.match((await runSluice(dir, ['status'])).stdout, /0 → 0 waiver acceptance by Dana Ruiz \(CTO\) \(unverified\)/);

    const again = await runSluice(dir, ['waivers', 'accept']);
    assert.equal(again.code, 0);
    assert.match(again.stdout, /already accepted/);
    assert.equal((await readState(dir)).history.length, 1, 'an accepted waiver is not recorded twice');
  });

  it('a FILE without a waiver is a usage error naming the waived files; nothing is written', async () => {
    const dir = await waivedProject('--profile', 'starter');
    const r = await runSluice(dir, ['waivers', 'accept', 'stakeholders.md']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /stakeholders\.md has no waiver in phase 0; waived files: constraints\.md/);
    assert.equal((await readState(dir)).history.length, 0);
  });
});

describe('waivers where the profile requires signatures (enterprise)', { skip: sshKeygenMissing }, () => {
  let alice: ThrowawayKey;
  let mallory: ThrowawayKey;
  let signers: string;

  before(async () => {
    const keys = await tempDir('sluice-keys-');
    alice = throwawayKey(keys, 'alice', 'alice@example.com');
    mallory = throwawayKey(keys, 'mallory', 'mallory@example.com');
    signers = join(keys, 'allowed_signers');
    await writeFile(signers, `${alice.signersLine}\n`);
  });

  const enterprise = () => waivedProject('--profile', 'enterprise', '--allowed-signers', signers);

  it('an unaccepted waiver fails G2 and blocks next; an unsigned acceptance is refused; a signed one lets it pass', async () => {
    const dir = await enterprise();
    const row = await g2Row(dir);
    assert.equal(row.passed, false);
    assert.match(row.message, /waiver by Dana Whitfield at constraints\.md:3 is not accepted: a person accepts it with `sluice waivers accept --sign`/);
    const next = await runSluice(dir, ['next', '--json']);
    assert.equal(next.code, 1);
    assert.equal((JSON.parse(next.stdout) as { status: string }).status, 'blocked');

    const unsigned = await runSluice(dir, ['waivers', 'accept', '--signed-by', 'Dana Ruiz (CTO)']);
    assert.equal(unsigned.code, 1);
    assert.match(unsigned.stderr, /SIGNATURE_REQUIRED/);
    assert.equal((await readState(dir)).history.length, 0, 'nothing was written');

    const signed = await runSluice(dir, ['waivers', 'accept', '--sign', alice.keyFile, '--reason', 'client board decides']);
    assert.equal(signed.code, 0, signed.stderr);
    assert.match(signed.stdout, /by alice@example\.com \(signed\)/);
    assert.equal((await g2Row(dir)).passed, true);

    const a = await audit(dir);
    assert.equal(a.code, 0, a.text);
    assert.deepEqual(
      a.doc.waivers.map((w) => [w.file, w.accepted, w.acceptance?.signature, w.acceptance?.signer]),
      [['constraints.md', true, 'verified', 'alice@example.com']],
    );
    assert.deepEqual(a.doc.waiverPolicy, { acceptance: true, signed: true });
    assert.match(a.text, /waived by Dana Whitfield; .*; accepted by alice@example\.com \(signed\)/);
    assert.match(a.text, /waiver acceptance 0 → 0, by alice@example\.com \(signed\)/);
  });

  it('a changed waiver needs a new acceptance', async () => {
    const dir = await enterprise();
    assert.equal((await runSluice(dir, ['waivers', 'accept', '--sign', alice.keyFile])).code, 0);
    await writeFile(join(dir, CONSTRAINTS), WAIVED.replace('week 3', 'week 9'));
    const row = await g2Row(dir);
    assert.equal(row.passed, false, 'another reason is another waiver');
    await writeFile(join(dir, CONSTRAINTS), `${WAIVED}\nHeadcount: TBD later\n`.replace('TBD later', 'FIXME'));
    assert.equal((await g2Row(dir)).passed, false, 'a waiver letting more markers through is another waiver');
  });

  it('an acceptance written into state.yaml by hand, tampered with, or signed by a key outside allowed_signers lets nothing through', async () => {
    const dir = await enterprise();
    assert.equal((await runSluice(dir, ['waivers', 'accept', '--sign', alice.keyFile])).code, 0);
    // A gate run after the acceptance stores the G2 row the audit reads its waivers from.
    assert.equal((await g2Row(dir)).passed, true);
    const original = await readFile(statePath(dir), 'utf8');
    const edited = async (change: (s: SdlcState) => void | Promise<void>) => {
      const s = parse(original) as SdlcState;
      await change(s);
      await writeFile(statePath(dir), stringify(s));
    };

    // A history entry that differs from the one its journal records: gate refuses the project; the audit shows why nothing counts.
    const refusedGate = async () => {
      const r = await runSluice(dir, ['gate', '--json']);
      assert.equal(r.code, 2, r.stdout);
      assert.equal(JSON.parse(r.stdout).error.code, 'STATE_TAMPERED');
    };
    await edited((s) => void delete s.history[0]!.signature);
    await refusedGate();
    let a = await audit(dir);
    assert.equal(a.doc.waivers[0]!.accepted, false);
    assert.match(a.text, /accepted by .* \(unverified\) .*unsigned \(the profile requires signatures\)/);

    await edited((s) => void (s.history[0]!.justification = 'approved by the board'));
    await refusedGate();
    a = await audit(dir);
    assert.equal(a.code, 1);
    assert.equal(a.doc.waivers[0]!.acceptance?.signature, 'invalid');
    assert.match(a.text, /accepted by .* \(unverified\) .*signature invalid/);

    await edited(async (s) => {
      const signature = await sshSign(createNodeHost(), { keyFile: mallory.keyFile, text: transitionStatement(s, s.history[0]!, 0) });
      s.history[0]!.signature = { principal: 'alice@example.com', namespace: 'sluice', signature };
    });
    await refusedGate();
    a = await audit(dir);
    assert.equal(a.code, 1);
    assert.equal(a.doc.waivers[0]!.acceptance?.signature, 'unknown-signer');

    await writeFile(statePath(dir), original);
    assert.equal((await g2Row(dir)).passed, true, 'the genuine acceptance still counts');
  });
});
