import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { killResumeScript, KILL_SLUGS } from '../fixtures/lifecycle/kill-resume-script.ts';
import { trustedEnv } from '../helpers/trusted-env.ts';
import { makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';
import { editFrozen, sdlcKernel, sluice, tempDir, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';
import { runSluice } from '../sdlc/sluice-cli.ts';

/**
 * Off a terminal (CI logs, pipes) a long run keeps saying it is alive with plain lines on stderr. The
 * interval is 20 s; SLUICE_PROGRESS_EVERY_MS shortens it here, so the work only has to outlast a few
 * intervals (the lines' timing itself is tested with a hand-moved clock in status-line.test.ts).
 */
const EVERY = { SLUICE_PROGRESS_EVERY_MS: '100' };
const plainLines = (stderr: string, prefix: string) => stderr.split('\n').filter((l) => l.startsWith(`${prefix}: `));

describe('progress off a terminal', () => {
  it('`lifecycle run` prints plain progress lines while stages run, and its --json stdout stays one document', async () => {
    const root = await makeRepo();
    // Each requirement has one stage that takes 1.5 s.
    await writeFile(join(root, 'script.json'), JSON.stringify(killResumeScript(1500)));
    for (const slug of KILL_SLUGS) await writeFiles(root, { [`.prizmkit/specs/${slug}/spec.md`]: `# ${slug}\n\nGoal.\n` });
    const r = await runSluice(root, ['lifecycle', 'run', ...KILL_SLUGS, '--to', 'script', '--script', 'script.json', '--json'], EVERY);
    const lines = plainLines(r.stderr, 'sluice lifecycle');
    assert.ok(lines.length >= 2, `progress lines on stderr:\n${r.stderr}`);
    assert.ok(
      lines.every((l) => /\(\d+ s\)$/.test(l)),
      lines.join('\n'),
    );
    assert.ok(
      lines.some((l) => /committed · .*\d+ running/.test(l)),
      `the lines say what runs: ${lines.join('\n')}`,
    );
    assert.ok(!r.stderr.includes('\u001b['), 'no terminal control characters in a log');
    assert.equal(JSON.parse(r.stdout).ok, false, 'stdout is the document alone (the commits await authorization)');
  });

  it('`gate` with a slow command gate prints them too; a quick gate run prints none', async () => {
    const dir = await tempDir();
    const kernel = await sdlcKernel(dir);
    await sluice(kernel, 'init');
    const slow = `[${JSON.stringify(process.execPath)}, -e, "setTimeout(() => {}, 1500)"]`;
    await editFrozen(dir, '.sdlc/profile.yaml', (t) => `${t}\nsluice:\n  gates:\n    - {id: slow-tests, type: command, phases: [0], argv: ${slow}}\n`);
    await writeCurrentArtifacts(kernel);
    const env = { ...(await trustedEnv(dir)), ...EVERY };
    const r = await runSluice(dir, ['gate'], env);
    const lines = plainLines(r.stderr, 'sluice gate');
    assert.ok(lines.length >= 2, `progress lines on stderr:\n${r.stderr}`);
    assert.ok(
      lines.some((l) => /1 running/.test(l)),
      lines.join('\n'),
    );
    const quick = await runSluice(dir, ['status'], env);
    assert.deepEqual(plainLines(quick.stderr, 'sluice status'), []);
  });
});
