import assert from 'node:assert/strict';
import { access, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { data, editFrozen, passPhase, sdlcKernel, sluice, tempDir, walkTo, writeCoverage, writeCurrentArtifacts, writeFileIn } from '../sdlc/sdlc-fixture.ts';
import * as v from 'valibot';
import { defineGate, gatePlugin, type GateResult, type PluginDefinition } from '../../core/index.ts';
import { profileGateInput } from '../../api/sdlc.ts';

type Doc = { status: string; results: GateResult[]; blockers: { id: string }[] };
const g4 = (o: { data: unknown }) => (o.data as Doc).results.filter((r) => r.gate === 'G4-compliance');

async function enterprise() {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir);
  await sluice(kernel, 'init', { profile: 'enterprise', type: 'service' });
  return { dir, kernel };
}

/** An enterprise project in phase 1 with its artifacts written, and the path of its requirements.md. */
async function enterpriseAtRequirements() {
  const { dir, kernel } = await enterprise();
  await passPhase(kernel);
  await writeCurrentArtifacts(kernel);
  return { dir, kernel, requirements: join(dir, '.sdlc/artifacts/01-requirements/requirements.md') };
}

describe('G4-compliance from the frozen compliance files', () => {
  it('artifact_content names the missing phrase and blocks; the phrase present (any case, plural) passes', async () => {
    const { kernel, requirements } = await enterpriseAtRequirements();
    await writeFile(requirements, '# Requirements\n\n- REQ-001 Clinics sign in with OAuth2; authentication is per clinic.\n');
    const blocked = await sluice(kernel, 'next', { confirmed: true });
    assert.equal(data<Doc>(blocked).status, 'blocked');
    assert.deepEqual(
      g4(blocked).map((r) => [r.id, r.passed, r.severity]),
      [['soc2-cc6.1-requirements', false, 'MUST']],
    );
    assert.match(g4(blocked)[0].message, /soc2 CC6\.1 — Logical and physical access controls: requirements\.md does not mention "authorization"/);
    await writeFile(requirements, '# Requirements\n\nAuthentication: OAuth2.\nAuthorizations are checked per clinic.\n');
    assert.equal(g4(await sluice(kernel, 'gate'))[0].passed, true);
  });

  it('artifact_content needs the artifact complete as well as on topic; artifact_exists fails on an empty folder', async () => {
    const { dir, kernel, requirements } = await enterpriseAtRequirements();
    await writeFile(requirements, '# Requirements\n\nAuthentication and authorization: <!-- REQUIRED: the access model -->\n');
    let row = g4(await sluice(kernel, 'gate'))[0];
    assert.equal(row.passed, false);
    assert.match(row.message, /requirements\.md is not complete: incomplete: <!-- REQUIRED: at requirements\.md:3/);
    await writeFile(requirements, '# Requirements\n\nWAIVED: Ana Ruiz — access model decided in Design\nAuthentication and authorization: TBD\n');
    row = g4(await sluice(kernel, 'gate'))[0];
    assert.equal(row.passed, false, 'a waiver passes G2, not a compliance control');
    assert.match(row.message, /not complete: waived by Ana Ruiz/);
    await writeFile(requirements, '# Requirements\n\nAuthentication: OAuth2. Authorization per clinic.\n');
    assert.equal(g4(await sluice(kernel, 'gate'))[0].passed, true);

    await passPhase(kernel);
    await writeCurrentArtifacts(kernel);
    const adrs = join(dir, '.sdlc/artifacts/02-design/adrs');
    await rm(adrs, { recursive: true });
    await import('node:fs/promises').then((fs) => fs.mkdir(adrs));
    const exists = g4(await sluice(kernel, 'gate')).find((r) => r.id === 'soc2-cc7.1-change-mgmt');
    assert.deepEqual(
      [exists?.passed, exists?.message],
      [false, 'soc2 CC7.1 — Change management through ADRs: .sdlc/artifacts/02-design/adrs/ is an empty folder'],
    );
  });

  it('manual checks keep their compliance id, metric checks read coverage against threshold_key', async () => {
    const { dir, kernel } = await enterprise();
    await walkTo(kernel, 'build');
    await writeCurrentArtifacts(kernel);
    await writeCoverage(dir, 70);
    const rows = g4(await sluice(kernel, 'gate'));
    const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
    assert.deepEqual(
      ['soc2-cc6.1-implementation', 'soc2-cc7.2-vulnerability', 'soc2-cc8.1-code-review'].map((id) => byId[id].passed),
      [null, null, null],
    );
    assert.equal(byId['soc2-cc7.1-testing'].passed, false);
    assert.match(byId['soc2-cc7.1-testing'].message, /line coverage 70% \(coverage\/lcov\.info\) is below quality\.coverage_minimum 80%/);
    await writeCoverage(dir, 85);
    assert.equal(g4(await sluice(kernel, 'gate')).find((r) => r.id === 'soc2-cc7.1-testing')?.passed, true);
  });

  it('hipaa and gdpr checks run for a profile listing them; a missing frozen file is a MUST failure', async () => {
    const dir = await tempDir();
    const starter = await readFile(new URL('../../plugins/sdlc/packs/starter/profile.yaml', import.meta.url), 'utf8');
    await writeFileIn(dir, 'pack/profile.yaml', starter.replace('frameworks:\n    - none', 'frameworks: [hipaa, gdpr]'));
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init', { profile: './pack' });
    await writeCurrentArtifacts(kernel);
    await writeFile(join(dir, '.sdlc/artifacts/00-discovery/constraints.md'), '# Constraints\n\nClaims carry protected health information.\n');
    let rows = g4(await sluice(kernel, 'gate'));
    assert.deepEqual(
      rows.map((r) => [r.id, r.passed]),
      [
        ['hipaa-164.308a1-phi-scope', true],
        ['gdpr-art30-personal-data-scope', false],
      ],
    );
    await rm(join(dir, '.sdlc/compliance/gdpr-gates.yaml'));
    const refused = await sluice(kernel, 'gate');
    assert.equal(refused.exitCode, 1);
    assert.match(refused.human ?? '', /FROZEN_MODIFIED: \.sdlc\/compliance\/gdpr-gates\.yaml/);
    // Removing it on purpose is recorded; the profile still lists gdpr, so G4 reports the file missing.
    assert.equal((await sluice(kernel, 'refreeze', { reason: 'gdpr file withdrawn', signedBy: 'Kim' }, ['.sdlc/compliance/gdpr-gates.yaml'])).exitCode, 0);
    rows = g4(await sluice(kernel, 'gate'));
    assert.deepEqual(rows[0], {
      gate: 'G4-compliance',
      id: 'G4:gdpr',
      check: 'gdpr gate file',
      passed: false,
      message: 'the profile enforces gdpr but .sdlc/compliance/gdpr-gates.yaml is missing; re-run sluice init --force or restore it',
      severity: 'MUST',
    });
  });

  it('a compliance file with a wrong check_type or a missing field is refused, naming the field', async () => {
    const { dir, kernel } = await enterprise();
    const file = join(dir, '.sdlc/compliance/soc2-gates.yaml');
    const text = await readFile(file, 'utf8');
    // Changing a frozen file takes a re-freeze, which refuses a file that breaks its schema.
    const refreeze = () => sluice(kernel, 'refreeze', { reason: 'edited', signedBy: 'Kim' }, ['.sdlc/compliance/soc2-gates.yaml']);
    await writeFile(file, text.replace('check_type: artifact_exists', 'check_type: artifact_exist'));
    let out = await refreeze();
    assert.equal(out.exitCode, 2);
    assert.match(out.human ?? '', /COMPLIANCE_INVALID: \.sdlc\/compliance\/soc2-gates\.yaml, field gates\.2\.check_type/);
    await writeFile(file, text.replace(/    required_content:\n      - "rollback"\n/, ''));
    out = await refreeze();
    assert.match(out.human ?? '', /COMPLIANCE_INVALID: .*field gates\.8\.required_content/);
    assert.equal((await sluice(kernel, 'gate')).error?.code, 'FROZEN_MODIFIED', 'nothing was re-frozen');
  });
});

const node = JSON.stringify(process.execPath);

/** A starter project whose frozen profile adds gates (as an org pack would). */
async function projectWithGates(gates: string, plugins: PluginDefinition[] = []) {
  const dir = await tempDir();
  const kernel = await sdlcKernel(dir, { plugins });
  await sluice(kernel, 'init');
  await editFrozen(dir, '.sdlc/profile.yaml', (t) => `${t}\nsluice:\n  gates:\n${gates}`);
  await writeCurrentArtifacts(kernel);
  return { dir, kernel };
}

describe('gates a profile pack adds', () => {
  it('command gates run without a shell, pass on exit 0 and report the exit code and last output line', async () => {
    const { dir, kernel } =
      await projectWithGates(`    - {id: lint, type: command, phases: [0], argv: [${node}, -e, "console.error('3 problems'); process.exit(3)"]}
    - {id: echo-args, type: command, phases: [0], argv: [${node}, -e, "console.log(process.argv[1])", "$(touch pwned) && echo"]}
    - {id: style, type: command, phases: [0], severity: SHOULD, argv: [${node}, -e, "process.exit(1)"]}
    - {id: missing-tool, type: command, phases: [0], severity: MAY, argv: [definitely-not-a-program-sluice]}
    - {id: later, type: command, phases: [build], argv: [${node}, -e, "process.exit(9)"]}
`);
    const out = await sluice(kernel, 'gate');
    const rows = Object.fromEntries(data<{ results: GateResult[] }>(out).results.map((r) => [r.gate, r]));
    assert.deepEqual([rows.lint.passed, rows.lint.severity], [false, 'MUST']);
    assert.match(rows.lint.message, /^exit 3: 3 problems$/);
    assert.equal(rows['echo-args'].passed, true);
    assert.match(rows['echo-args'].message, /exit 0: \$\(touch pwned\) && echo/);
    assert.equal(
      await access(join(dir, 'pwned')).then(
        () => true,
        () => false,
      ),
      false,
      'no shell ran the $(...)',
    );
    assert.equal(rows.style.passed, false);
    assert.match(rows['missing-tool'].message, /cannot start definitely-not-a-program-sluice/);
    assert.equal(rows.later, undefined, 'only gates listing the phase run');
    assert.equal(out.exitCode, 1, 'the MUST command gate blocks');
    assert.deepEqual(
      data<{ blockers: { id: string }[] }>(out).blockers.map((b) => b.id),
      ['lint'],
    );
  });

  const reviewGate = (checked: string[] = []) =>
    defineGate({
      type: 'acme-review',
      id: 'ACME-review',
      description: 'architecture board review',
      input: profileGateInput({ reviewers: v.pipe(v.array(v.string()), v.minLength(1)) }),
      async check(input) {
        checked.push(input.id);
        return [{ gate: 'ACME-review', check: `Board review by ${input.reviewers.join(' and ')}`, passed: null, message: 'the board signs', severity: 'MUST' }];
      },
    });

  it('a gate type registered by a plugin runs with its input; its manual rows get approvable ids', async () => {
    const plugin = gatePlugin(reviewGate(), { name: 'acme-gates' });
    const { kernel } = await projectWithGates('    - {id: board, type: acme-review, phases: ["0"], with: {reviewers: [Kim, Lee]}}\n', [plugin]);
    const first = await sluice(kernel, 'next');
    const manual = data<{ manual: { id: string; check: string }[] }>(first).manual.find((m) => m.check.startsWith('Board review'));
    assert.equal(manual?.id, 'ACME-review:board-review-by-kim-and-lee');
    const unapproved = data<{ unapproved: { id: string }[] }>(first).unapproved.map((m) => m.id);
    const advanced = await sluice(kernel, 'next', { approve: unapproved, signedBy: 'Kim', confirmed: true });
    assert.equal(advanced.exitCode, 0, advanced.human ?? '');
  });

  it("a profile's with: map the gate does not accept stops the run before the gate checks anything, naming profile field, gate and plugin", async () => {
    const checked: string[] = [];
    const plugin = gatePlugin(reviewGate(checked), { name: 'acme-gates' });
    const { kernel } = await projectWithGates(
      '    - {id: later, type: command, phases: [build], argv: [npm, test]}\n    - {id: board, type: acme-review, phases: ["0"], with: {reviewers: [Kim]}}\n',
      [plugin],
    );
    await editFrozen(kernel.projectRoot, '.sdlc/profile.yaml', (t) => t.replace('with: {reviewers: [Kim]}', 'with: {reviewer: Kim}'));
    const out = await sluice(kernel, 'gate');
    assert.equal(out.exitCode, 2);
    assert.deepEqual(
      { code: out.error?.code, file: out.error?.file, field: out.error?.field, plugin: out.error?.plugin },
      { code: 'GATE_INPUT_INVALID', file: '.sdlc/profile.yaml', field: 'sluice.gates.1.with.reviewers', plugin: 'acme-gates' },
    );
    assert.match(
      out.human ?? '',
      /^GATE_INPUT_INVALID: \.sdlc\/profile\.yaml, field sluice\.gates\.1\.with\.reviewers, plugin acme-gates: gate acme-review \(ACME-review\) does not accept this input: [^\n]+$/,
    );
    assert.deepEqual(checked, [], 'the gate never ran');

    await editFrozen(kernel.projectRoot, '.sdlc/profile.yaml', (t) => t.replace('with: {reviewer: Kim}', 'with: {reviewers: [Kim], quorum: 2}'));
    const typo = await sluice(kernel, 'gate');
    assert.equal(typo.error?.field, 'sluice.gates.1.with.quorum', 'a with: key the gate does not name is refused');
    assert.deepEqual(checked, []);
  });
});

describe('manual judgements: G6-quality and G7-exit-criteria', () => {
  it('never pass by default, keep stable ids across runs, and map fail/warn to MUST/SHOULD', async () => {
    const { kernel } = await enterprise();
    await walkTo(kernel, '2');
    await writeCurrentArtifacts(kernel);
    const rows = async () =>
      data<{ results: GateResult[] }>(await sluice(kernel, 'gate')).results.filter((r) => r.gate === 'G6-quality' || r.gate === 'G7-exit-criteria');
    const a = await rows();
    const b = await rows();
    assert.deepEqual(
      a.map((r) => r.id),
      b.map((r) => r.id),
    );
    assert.ok(a.every((r) => r.passed === null));
    const g6 = Object.fromEntries(a.filter((r) => r.gate === 'G6-quality').map((r) => [r.id, r.severity]));
    assert.deepEqual(g6, { 'G6:adr-completeness': 'MUST', 'G6:interface-contract-specificity': 'SHOULD' });
    assert.deepEqual(
      a.filter((r) => r.gate === 'G7-exit-criteria').map((r) => r.id),
      [
        'G7:architecture-diagrams-rendered-as-html-not-ascii',
        'G7:if-deep-plan-was-used-deep-plan-checkpoint-yaml',
        'G7:design-level-threat-review-done-and-its-guarded',
      ],
    );
  });

  it('approvals are per gate: approving some leaves the others listed, and history records each with its signer', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    await writeCurrentArtifacts(kernel);
    const ids = data<{ unapproved: { id: string }[] }>(await sluice(kernel, 'next')).unapproved.map((m) => m.id);
    const partial = await sluice(kernel, 'next', { approve: [ids[0], ids[2]], signedBy: 'Kim' });
    assert.equal(partial.exitCode, 1);
    assert.deepEqual(
      data<{ unapproved: { id: string }[] }>(partial).unapproved.map((m) => m.id),
      [ids[1], ids[3]],
    );
    const done = await sluice(kernel, 'next', {
      approve: ids,
      signedBy: 'Kim',
      confirmed: true,
      justification: 'Discovery signed off in the steering meeting',
    });
    assert.equal(done.exitCode, 0);
    const entry = data<{ entry: { approvals: { gate: string; signed_by: string }[]; justification: string; gate_results: { manual: number } } }>(done).entry;
    assert.deepEqual(
      entry.approvals.map((a) => [a.gate, a.signed_by]),
      ids.map((id) => [id, 'Kim']),
    );
    assert.equal(entry.justification, 'Discovery signed off in the steering meeting');
    assert.equal(entry.gate_results.manual, 4);
  });
});
