import assert from 'node:assert/strict';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { initProject, projectsRemovedAfterTests, sluice } from './views-cli.ts';
import { approveAndAdvance, writePhaseArtifacts } from './walk-project.ts';

const project = projectsRemovedAfterTests();

// A fake token shaped like a GitHub one, and an environment secret the tool echoes.
const TOKEN = `ghp_${'a1B2c3D4e5'.repeat(4)}`;
const SECRET = 'hunter2-but-longer-than-eight';

describe('profiles with type: command gates', () => {
  it('audit, report and reenter work on them, and command output is redacted before state.yaml keeps it', async () => {
    const dir = await project('sluice-command-gates-');
    const starter = await readFile(new URL('../../plugins/sdlc/packs/starter/profile.yaml', import.meta.url), 'utf8');
    const lint = `console.log('pushed with ${TOKEN} and ' + process.env.ACME_API_KEY)`;
    await mkdir(join(dir, 'pack'));
    await writeFile(
      join(dir, 'pack/profile.yaml'),
      `${starter}\nsluice:\n  gates:\n    - {id: lint, type: command, phases: ["0", "1"], severity: SHOULD, argv: [${JSON.stringify(process.execPath)}, -e, ${JSON.stringify(`${lint}; process.exit(1)`)}]}\n`,
    );
    await initProject(dir, ['--profile', './pack', '--type', 'service']);
    // The reviewed project: its command gate may run (a CI host's SLUICE_TRUSTED_HASH).
    const trusted = await trustedEnv(dir);
    const env = { ...trusted, ACME_API_KEY: SECRET };
    await writePhaseArtifacts(dir, '0', 'service');
    const gate = await sluice(dir, ['gate'], env);
    assert.match(gate.stdout, /lint .*exit 1: pushed with \[REDACTED:github-token\] and \[REDACTED:ACME_API_KEY\]/);
    await approveAndAdvance(dir, 'Grace Hopper', trusted);
    await writePhaseArtifacts(dir, '1', 'service');
    assert.equal((await sluice(dir, ['gate'], env)).code, 0);
    const state = await readFile(join(dir, '.sdlc/state.yaml'), 'utf8');
    assert.ok(state.includes('[REDACTED:github-token]'), 'the stored row keeps the message, redacted');
    assert.ok(!state.includes(TOKEN) && !state.includes(SECRET), 'no secret in state.yaml');

    // Reading results runs nothing: no trust needed.
    const audit = await sluice(dir, ['audit']);
    assert.equal(audit.code, 0, audit.stderr);
    assert.match(audit.stdout, /^lint\s+2\s+0%\s+100%/m);
    const report = await sluice(dir, ['report', '--all', '--out', join(dir, 'site')]);
    assert.equal(report.code, 0, report.stderr);
    const back = await sluice(dir, ['reenter', '0', '--justification', 'the scope list missed the mobile app', '--signed-by', 'Grace Hopper']);
    assert.equal(back.code, 0, back.stderr);
  });
});
