import assert from 'node:assert/strict';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { referencePlugin, referenceStillRuns, runReferenceScript } from '../helpers/reference-scripts.ts';
import { sdlcKernel, signingFor, tempDir, walkTo, writeCurrentArtifacts } from './sdlc-fixture.ts';
import { runSluice } from './sluice-cli.ts';

/**
 * sluice and the reference plugin's Python scripts on the same projects: projects the reference set
 * up work in sluice, and after any sluice write the reference's own scripts still run.
 */
const cli = (dir: string, ...args: string[]) => runSluice(dir, args, { SLUICE_USER: 'os-user' });
const skip = referencePlugin.skip;

interface GateJson {
  results: { gate: string; passed: boolean | null; message: string; severity: string; framework?: string }[];
}

/** `init_project.py` with one of the reference's own profiles. */
async function referenceProject(profile: string): Promise<string> {
  const dir = await tempDir('sluice-ref-');
  const r = await runReferenceScript(
    'init_project.py',
    ['--profile', join(referencePlugin.dir!, 'profiles', profile, 'profile.yaml'), '--target', dir, '--name', `ref ${profile}`],
    dir,
  );
  assert.equal(r.code, 0, r.stdout + r.stderr);
  return dir;
}

async function referenceProfiles(): Promise<{ id: string; compliance: boolean }[]> {
  const root = join(referencePlugin.dir!, 'profiles');
  const out: { id: string; compliance: boolean }[] = [];
  for (const e of await readdir(root, { withFileTypes: true })) {
    if (!e.isDirectory()) continue;
    const files = await readdir(join(root, e.name));
    if (!files.includes('profile.yaml')) continue;
    out.push({ id: e.name, compliance: files.includes('compliance') });
  }
  return out.sort((a, b) => a.id.localeCompare(b.id));
}

describe('projects the reference set up', { skip }, () => {
  it('read compliance from the pack their profile_id names, so a SOC 2 project is not blocked forever', async () => {
    const profiles = await referenceProfiles();
    assert.ok(
      profiles.some((p) => p.compliance),
      'the reference ships at least one profile with compliance files',
    );
    for (const p of profiles) {
      const dir = await referenceProject(p.id);
      const gate = await cli(dir, 'gate', '--phase', '1', '--json');
      assert.ok(gate.code === 0 || gate.code === 1, `${p.id}: ${gate.stderr}`);
      const results = (JSON.parse(gate.stdout) as GateJson).results;
      const missing = results.filter((r) => r.gate.startsWith('G4') && /is missing; re-run/.test(r.message));
      assert.deepEqual(missing, [], `${p.id}: no compliance file reported missing`);
      if (p.compliance)
        assert.ok(
          results.some((r) => r.gate.startsWith('G4') && r.framework === 'soc2'),
          `${p.id}: its soc2 checks run`,
        );

      // Discovery done: the project advances (the reference's own layout has no .sdlc/compliance/).
      await writeCurrentArtifacts(await sdlcKernel(dir));
      const next = await cli(dir, 'next', '--signed-by', 'Ana Ruiz', '--confirmed');
      assert.equal(next.code, 0, `${p.id}: ${next.stdout}${next.stderr}`);
      assert.deepEqual(await referenceStillRuns(dir), [], p.id);
    }
  });

  it('init --force on a reference project keeps its profile and name and reads its compliance from the pack', async () => {
    const profile = (await referenceProfiles()).find((p) => p.compliance)!;
    const dir = await referenceProject(profile.id);
    const forced = await cli(dir, 'init', '--force', '--json');
    assert.equal(forced.code, 0, forced.stderr);
    const doc = JSON.parse(forced.stdout) as { profileId: string; frozen: string[]; state: { project_name: string } };
    assert.deepEqual([doc.profileId, doc.state.project_name], [profile.id, `ref ${profile.id}`]);
    assert.ok(doc.frozen.includes('.sdlc/compliance/soc2-gates.yaml'));
    assert.deepEqual(await referenceStillRuns(dir), []);
  });
});

describe("after any sluice write the reference's scripts still run", { skip }, () => {
  it('init, gate, waivers accept, next, skip, reenter, refreeze, init --force and the close sign-off', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    const step = async (what: string, args: string[], codes = [0]) => {
      const r = await cli(dir, ...args);
      assert.ok(codes.includes(r.code ?? -1), `${what}: exit ${r.code}\n${r.stdout}${r.stderr}`);
      assert.deepEqual(await referenceStillRuns(dir), [], `after ${what}`);
    };
    await step('init', ['init', '--profile', 'enterprise', '--type', 'service']);
    // PyYAML must read sluice's timestamps back as strings (the reference template quotes them).
    assert.match(await readFile(join(dir, '.sdlc/state.yaml'), 'utf8'), /created_at: "\d{4}-/);
    await step('gate', ['gate'], [1]);
    await writeCurrentArtifacts(kernel);
    const ids = (JSON.parse((await cli(dir, 'next', '--json')).stdout) as { unapproved: { id: string }[] }).unapproved.flatMap(({ id }) => ['--approve', id]);
    // The enterprise pack requires signed approvals: a throwaway key listed in .sdlc/allowed_signers.
    const { sign } = await signingFor(kernel);
    const signArgs = sign ? ['--sign', sign] : [];
    // A waived artifact: the enterprise pack lets it through only once a person accepted it, signed.
    const constraints = join(dir, '.sdlc/artifacts/00-discovery/constraints.md');
    await writeFile(constraints, `WAIVED: Dana Whitfield — budget comes from the client board\n\n${await readFile(constraints, 'utf8')}\nBudget: TBD\n`);
    await step('waivers accept', ['waivers', 'accept', '--signed-by', 'Ana Ruiz', ...signArgs]);
    await step('next', ['next', ...ids, '--signed-by', 'Ana Ruiz', '--confirmed', ...signArgs]);
    await step('skip', ['skip', '--justification', 'Requirements came signed with the RFP', '--confirmed', ...signArgs]);
    await step('reenter', ['reenter', '1', '--justification', 'NFRs missing', ...signArgs]);
    const profile = join(dir, '.sdlc', 'profile.yaml');
    await writeFile(profile, `${await readFile(profile, 'utf8')}\n# reviewed by the QA board\n`);
    await step('refreeze', ['refreeze', '.sdlc/profile.yaml', '--reason', 'comment added', '--signed-by', 'Ana Ruiz', ...signArgs]);
    await step('init --force', ['init', '--force', '--confirmed']);

    // A starter project walked to the end and signed off.
    const done = await tempDir();
    const k = await sdlcKernel(done);
    assert.equal((await cli(done, 'init', '--type', 'service')).code, 0);
    await walkTo(k, 'close');
    await writeCurrentArtifacts(k);
    const signed = await cli(done, 'next', '--signed-by', 'Ana Ruiz', '--confirmed');
    assert.equal(signed.code, 0, signed.stderr);
    assert.deepEqual(await referenceStillRuns(done), []);
    const status = await runReferenceScript('generate_status.py', ['--state', '.sdlc/state.yaml'], done);
    assert.match(status.stdout, /close/);
  });
});
