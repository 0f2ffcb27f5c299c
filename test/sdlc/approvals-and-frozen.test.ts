import assert from 'node:assert/strict';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parse } from 'yaml';
import type { GateAudit } from '../../plugins/sdlc-views/model/gate-audit.ts';
import type { HistoryEntry } from '../../plugins/sdlc/state/history-schema.ts';
import { readState, sdlcKernel, signingFor, tempDir, walkTo, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

/** These tests drive the bundled CLI (dist/ as `node scripts/build.mjs` makes it) in child processes. */
const cli = (dir: string, ...args: string[]) => runSluice(dir, args, { SLUICE_USER: 'os-user' });
const json = <T>(stdout: string) => JSON.parse(stdout) as T;
const stateText = (dir: string) => readFile(join(dir, '.sdlc', 'state.yaml'), 'utf8');

interface NextJson {
  status: string;
  unapproved: { id: string }[];
  manual: { id: string }[];
  entry?: HistoryEntry;
}

/** `--sign KEY` where the profile requires signed approvals (the enterprise pack), else nothing. */
async function signArgs(dir: string): Promise<string[]> {
  const { sign } = await signingFor(await sdlcKernel(dir));
  return sign ? ['--sign', sign] : [];
}

async function initProject(profile = 'starter', name = 'Claims Intake'): Promise<string> {
  const dir = await tempDir();
  const r = await cli(dir, 'init', '--profile', profile, '--name', name, '--type', 'service');
  assert.equal(r.code, 0, r.stderr);
  return dir;
}

describe('next --confirmed approves the manual gates it listed (seed §6 step 5)', () => {
  it('advances once MUST gates pass, with one approval per listed manual gate, signed by --signed-by or else the OS user', async () => {
    const dir = await initProject();
    await writeCurrentArtifacts(await sdlcKernel(dir));
    const dry = await cli(dir, 'next', '--json');
    assert.equal(dry.code, 1);
    const listed = json<NextJson>(dry.stdout);
    assert.equal(listed.status, 'review-required');
    assert.ok(listed.unapproved.length > 0);
    assert.match((await cli(dir, 'next')).stdout, /Or, once every listed gate is reviewed: sluice next --signed-by NAME --confirmed/);

    const advanced = await cli(dir, 'next', '--signed-by', 'Ana Ruiz', '--confirmed', '--json');
    assert.equal(advanced.code, 0, advanced.stderr);
    const entry = json<NextJson>(advanced.stdout).entry!;
    assert.deepEqual(
      entry.approvals?.map((a) => a.gate),
      listed.unapproved.map((m) => m.id),
      'each listed gate, on its own',
    );
    assert.ok(entry.approvals?.every((a) => a.signed_by === 'Ana Ruiz' && a.via === 'confirmed' && a.at === entry.at));
    assert.equal(entry.confirmed_by, 'Ana Ruiz');

    // Without --signed-by the signer is the OS user, never nobody.
    await writeCurrentArtifacts(await sdlcKernel(dir));
    const second = await cli(dir, 'next', '--confirmed', '--json');
    assert.equal(second.code, 0, second.stderr);
    assert.ok(json<NextJson>(second.stdout).entry!.approvals!.every((a) => a.signed_by === 'os-user'));
    assert.equal(String((await readState(await sdlcKernel(dir))).current_phase), '2');
  });

  it('a profile with sluice.per_gate_approval (the enterprise pack) needs an --approve per manual gate', async () => {
    const dir = await initProject('enterprise');
    assert.match(await readFile(join(dir, '.sdlc', 'profile.yaml'), 'utf8'), /per_gate_approval: true/);
    await writeCurrentArtifacts(await sdlcKernel(dir));
    const refused = await cli(dir, 'next', '--signed-by', 'Ana Ruiz', '--confirmed', '--json');
    assert.equal(refused.code, 1);
    const doc = json<NextJson>(refused.stdout);
    assert.equal(doc.status, 'review-required');
    assert.match(
      (await cli(dir, 'next', '--signed-by', 'Ana Ruiz', '--confirmed')).stdout,
      /requires an --approve per manual gate \(sluice\.per_gate_approval\)/,
    );
    assert.match(await stateText(dir), /history: \[\]/, 'nothing written');

    const approve = doc.unapproved.flatMap(({ id }) => ['--approve', id]);
    const advanced = await cli(dir, 'next', ...approve, '--signed-by', 'Ana Ruiz', '--confirmed', '--json', ...(await signArgs(dir)));
    assert.equal(advanced.code, 0, advanced.stderr);
    assert.ok(json<NextJson>(advanced.stdout).entry!.approvals!.every((a) => a.via === 'approve'));
  });
});

describe('the close phase can be signed off', () => {
  it('keeps its approvals, shows 100% and "project complete", and audit lists approvals apart from overrides', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    assert.equal((await cli(dir, 'init', '--name', 'Claims Intake', '--type', 'service')).code, 0);
    await walkTo(kernel, 'close');
    await writeCurrentArtifacts(kernel);
    const dry = await cli(dir, 'next');
    assert.equal(dry.code, 1, 'the manual gates of close are listed first');
    assert.match(dry.stdout, /Phase C: Close & Transfer → sign-off \(final phase\)/);

    const signed = await cli(dir, 'next', '--signed-by', 'Ana Ruiz', '--confirmed', '--json');
    assert.equal(signed.code, 0, signed.stderr);
    const doc = json<NextJson>(signed.stdout);
    assert.equal(doc.status, 'signed-off');
    const state = await readState(kernel);
    assert.equal(state.phases.close.status, 'completed');
    assert.equal(String(state.current_phase), 'close');
    const last = state.history.at(-1)!;
    assert.deepEqual([last.from, last.to, last.signoff], ['close', 'close', true]);
    assert.ok((last.approvals ?? []).length > 0);

    const status = await cli(dir, 'status', '--json');
    assert.equal(json<{ progress: { percent: number } }>(status.stdout).progress.percent, 100);
    assert.match((await cli(dir, 'status')).stdout, /\(final phase\) — project complete/);
    const again = await cli(dir, 'next', '--confirmed');
    assert.equal(again.code, 0);
    assert.match(again.stdout, /Already complete/);
    assert.equal((await readState(kernel)).history.length, state.history.length, 'a second sign-off writes nothing');

    const audit = json<GateAudit>((await cli(dir, 'audit', '--json')).stdout);
    assert.equal(audit.transitions.signoffs, 1);
    const closeApprovals = audit.approvals.filter((a) => a.phase === 'close');
    assert.deepEqual(
      closeApprovals.map((a) => a.subject),
      (last.approvals ?? []).map((a) => a.gate),
    );
    assert.ok(
      audit.overrides.every((o) => o.kind === 'warning-accepted'),
      'approvals are not overrides',
    );
    const text = (await cli(dir, 'audit')).stdout;
    assert.match(text, /Approvals \(\d+\)[\s\S]*phase close, signed by Ana Ruiz[\s\S]*approved by confirming the listed gates: G7:/);
    assert.match(text, /Overrides \(\d+\)/);
  });
});

describe('frozen files stay frozen', () => {
  it('init records checksums; an edit makes gate and next fail with FROZEN_MODIFIED naming the file until refreeze records who and why', async () => {
    const dir = await initProject('enterprise');
    const state = await readState(await sdlcKernel(dir));
    assert.deepEqual(Object.keys(state.frozen_files ?? {}).sort(), ['.sdlc/compliance/soc2-gates.yaml', '.sdlc/phase-registry.yaml', '.sdlc/profile.yaml']);

    const profile = join(dir, '.sdlc', 'profile.yaml');
    await writeFile(profile, (await readFile(profile, 'utf8')).replace(/coverage_minimum: \d+/, 'coverage_minimum: 10'));
    const before = await stateText(dir);
    for (const args of [['gate'], ['next', '--confirmed'], ['skip', '--justification', 'x', '--confirmed']]) {
      const r = await cli(dir, ...args);
      assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
      assert.match(r.stderr, /FROZEN_MODIFIED: \.sdlc\/profile\.yaml: \.sdlc\/profile\.yaml was modified after it was frozen/);
      assert.match(r.stderr, /sluice refreeze \.sdlc\/profile\.yaml --reason/);
    }
    assert.equal(await stateText(dir), before, 'nothing written');
    assert.equal((await cli(dir, 'status')).code, 0, 'the views still show the project');
    const auditBefore = await cli(dir, 'audit');
    assert.match(auditBefore.stdout, /MODIFIED \.sdlc\/profile\.yaml: gate and next refuse/);

    const noReason = await cli(dir, 'refreeze', '.sdlc/profile.yaml', '--signed-by', 'Ana Ruiz');
    assert.equal(noReason.code, 2);
    assert.match(noReason.stderr, /--reason/);
    const notFrozen = await cli(dir, 'refreeze', '.sdlc/state.yaml', '--reason', 'x');
    assert.equal(notFrozen.code, 2);
    assert.match(notFrozen.stderr, /\.sdlc\/state\.yaml is not a frozen file/);

    // The enterprise pack requires signed approvals: a re-freeze is one too.
    const unsigned = await cli(dir, 'refreeze', '.sdlc/profile.yaml', '--reason', 'Pilot', '--signed-by', 'Ana Ruiz');
    assert.equal(unsigned.code, 1);
    assert.match(unsigned.stderr, /SIGNATURE_REQUIRED: .*re-freezing \.sdlc\/profile\.yaml needs --sign/);
    const re = await cli(
      dir,
      'refreeze',
      '.sdlc/profile.yaml',
      '--reason',
      'Pilot: coverage floor lowered by the QA board',
      '--signed-by',
      'Ana Ruiz',
      '--json',
      ...(await signArgs(dir)),
    );
    assert.equal(re.code, 0, re.stderr);
    const after = await readState(await sdlcKernel(dir));
    const entry = after.history.at(-1)!;
    assert.equal(entry.refreeze, true);
    assert.deepEqual([entry.from, entry.to, entry.confirmed_by, entry.justification], ['0', '0', 'Ana Ruiz', 'Pilot: coverage floor lowered by the QA board']);
    assert.deepEqual(Object.keys(entry.frozen_files ?? {}), ['.sdlc/profile.yaml']);
    assert.deepEqual(after.frozen_files, state.frozen_files, 'the checksums of init are never rewritten');
    assert.equal((await cli(dir, 'gate')).code, 1, 'gates run again (blocked on the blank templates, not on the profile)');
    assert.doesNotMatch((await cli(dir, 'gate')).stderr, /FROZEN_MODIFIED/);

    const audit = await cli(dir, 'audit');
    assert.match(audit.stdout, /Re-freezes \(1\)\n.*\.sdlc\/profile\.yaml \(phase 0\), by .*\(signed\); "Pilot: coverage floor lowered by the QA board"/);
    assert.equal(audit.code, 0, 'the signed re-freeze verifies');
    assert.match(audit.stdout, /Frozen files \(3\)\n {2}intact/);
    assert.equal(json<GateAudit>((await cli(dir, 'audit', '--json')).stdout).refreezes.length, 1);
  });

  it('a removed compliance file is FROZEN_MODIFIED too, and a refreeze of an invalid file is refused with nothing recorded', async () => {
    const dir = await initProject('enterprise');
    await rm(join(dir, '.sdlc', 'compliance', 'soc2-gates.yaml'));
    const r = await cli(dir, 'gate');
    assert.equal(r.code, 1);
    assert.match(r.stderr, /FROZEN_MODIFIED: \.sdlc\/compliance\/soc2-gates\.yaml: .* was removed after it was frozen/);

    const registry = join(dir, '.sdlc', 'phase-registry.yaml');
    await writeFile(registry, 'version: "2.0"\nphases: 7\n');
    const before = await stateText(dir);
    const refused = await cli(dir, 'refreeze', '.sdlc/phase-registry.yaml', '--reason', 'trying');
    assert.equal(refused.code, 2);
    assert.match(refused.stderr, /REGISTRY_INVALID: \.sdlc\/phase-registry\.yaml/);
    assert.equal(await stateText(dir), before);
  });

  it('the store refuses a write that changes the checksums recorded at init', async () => {
    const dir = await initProject();
    const text = await stateText(dir);
    const kernel = await sdlcKernel(dir);
    const { sdlcStateFile } = await import('../../plugins/sdlc/state/state-file.ts');
    await assert.rejects(
      kernel.store.update(sdlcStateFile(join(dir, '.sdlc', 'state.yaml')), (s) => ({ ...s, frozen_files: {} })),
      /frozen_files is written once at init/,
    );
    assert.equal(await stateText(dir), text);
  });
});

describe('init', () => {
  it("writes the seed's layout and a starter template per required artifact, which G2 keeps blocked", async () => {
    const dir = await initProject();
    const sdlc = join(dir, '.sdlc');
    assert.deepEqual((await readdir(join(sdlc, 'context'))).sort(), ['intake', 'layers']);
    const constitution = await readFile(join(sdlc, 'constitution.md'), 'utf8');
    assert.match(constitution, /^# Constitution — Claims Intake/);
    assert.match(constitution, /<!-- REQUIRED: /);
    const registry = parse(await readFile(join(sdlc, 'phase-registry.yaml'), 'utf8')) as {
      phases: { slug: string; artifacts?: { required?: (string | { path: string; root?: string })[] } }[];
    };
    for (const phase of registry.phases) {
      for (const a of phase.artifacts?.required ?? []) {
        const name = typeof a === 'string' ? a : a.path;
        if ((typeof a !== 'string' && a.root === 'repo') || name.endsWith('/') || !name.endsWith('.md')) continue;
        const text = await readFile(join(sdlc, 'artifacts', phase.slug, name), 'utf8').catch(() => '');
        assert.match(text, /<!-- REQUIRED: .+ -->/, `${phase.slug}/${name} has a starter template`);
      }
    }
    const gate = json<{ blockers: { id: string }[] }>((await cli(dir, 'gate', '--json')).stdout);
    assert.ok(
      gate.blockers.some((b) => b.id === 'G2:problem-statement.md'),
      'an unfilled template does not pass G2',
    );
  });

  it('--force keeps the profile and the name unless given, refuses over history without --confirmed, and keeps a backup', async () => {
    const dir = await initProject('enterprise', 'Claims API');
    const mine = join(dir, '.sdlc', 'artifacts', '00-discovery', 'problem-statement.md');
    await writeFile(mine, '# Problem\n\nClaims wait 9 days.\n');
    await writeCurrentArtifacts(await sdlcKernel(dir));
    const ids = json<NextJson>((await cli(dir, 'next', '--json')).stdout).unapproved.flatMap(({ id }) => ['--approve', id]);
    const signed = await cli(dir, 'next', ...ids, '--signed-by', 'Ana', '--confirmed', ...(await signArgs(dir)));
    assert.equal(signed.code, 0, signed.stderr);
    const withHistory = await stateText(dir);

    const refused = await cli(dir, 'init', '--force');
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /APPROVAL_REQUIRED: .*1 recorded transition .*--force --confirmed/);
    assert.equal(await stateText(dir), withHistory);

    const forced = await cli(dir, 'init', '--force', '--confirmed', '--json');
    assert.equal(forced.code, 0, forced.stderr);
    const doc = json<{ backup: string; profileId: string; state: { project_name: string; history: unknown[]; project_type: string } }>(forced.stdout);
    assert.deepEqual(
      [doc.profileId, doc.state.project_name, doc.state.history.length, doc.state.project_type],
      ['microsoft-enterprise', 'Claims API', 0, 'service'],
    );
    assert.equal(await readFile(join(dir, doc.backup, 'state.yaml'), 'utf8'), withHistory);
    assert.equal((await readdir(join(dir, doc.backup, 'compliance'))).length, 1);
    assert.equal((await readFile(mine, 'utf8')).length > 0, true, 'artifacts are kept');
    assert.equal((await cli(dir, 'gate')).stderr.includes('FROZEN_MODIFIED'), false);
  });
});
