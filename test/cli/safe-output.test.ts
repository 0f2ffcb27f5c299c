import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { recordStage } from '../../plugins/lifecycle/record-stage.ts';
import { startRequirement } from '../../plugins/lifecycle/start-requirement.ts';
import { cliBundle, runSluice } from '../hardening/cli-bundle.ts';
import { evidence, gitIn, makeLifecycle, makeRepo, writeFiles } from '../lifecycle/lifecycle-fixture.ts';

/**
 * Names from data never steer the terminal. The attack: a folder whose name holds cursor escapes
 * redrew the commit preview so it read "1 file: src/feat.js" while a .github/workflows file was in
 * the commit. Every raw control or bidi character from data must come out as a visible escape.
 */
const CURSOR = '\u001b[2A\r\u001b[2K1 file:\u001b[1B\r\u001b[2K';
const RAW = ['\u001b[2A', '\u001b[2K', '\u001b[2J', '\u001b]0;', '\u202e', '\u2066', '\r\u001b'];
const raw = (text: string) => RAW.filter((seq) => text.includes(seq));
const hasScript = spawnSync('script', ['--version']).status === 0;

describe('safe output: control characters from data are shown, not obeyed', () => {
  it('the commit preview lists a hostile folder name as visible escapes and counts every file', {
    skip: !hasScript && 'util-linux `script` (a pseudo-terminal) is not installed',
  }, async () => {
    const root = await makeRepo();
    const { lc } = await makeLifecycle(root);
    await startRequirement(lc, 'feat', { goal: 'x' });
    // The hostile file is part of the change that was reviewed and tested (an edit after review
    // would be refused as stale before any preview).
    mkdirSync(join(root, '.github', 'workflows', CURSOR), { recursive: true });
    writeFileSync(join(root, '.github', 'workflows', CURSOR, 'ci.yml'), 'on: push\njobs: {}\n');
    const stages = [
      [evidence.plan('feat'), 'plan'],
      [evidence.implement('feat'), 'implement'],
      [evidence.review('feat', 'PASS'), 'code-review'],
      [evidence.test('feat', 'TEST_PASS'), 'test'],
      [evidence.retrospective('feat'), 'retrospective'],
    ] as const;
    for (const [files, stage] of stages) {
      await writeFiles(root, files);
      await recordStage(lc, 'feat', stage, null);
    }
    await writeFiles(root, evidence.commitRequest('feat', ['src/feat.js', '.github']));
    const cli = `${JSON.stringify(process.execPath)} ${JSON.stringify(cliBundle())} --cwd ${JSON.stringify(root)} lifecycle record feat commit`;
    const tty = spawnSync('script', ['-qec', cli, '/dev/null'], { input: 'n\n', env: { ...process.env, NO_COLOR: '1' }, encoding: 'utf8', timeout: 60_000 });
    const screen = tty.stdout;
    assert.match(screen, /2 files:/, screen);
    assert.match(screen, /\.github\/workflows\/\\x1b\[2A\\x0d\\x1b\[2K1 file:\\x1b\[1B\\x0d\\x1b\[2K\/ci\.yml/);
    assert.match(screen, /src\/feat\.js/);
    assert.deepEqual(raw(screen), [], 'no cursor movement or erase reached the terminal');
    assert.equal(gitIn(root, 'rev-list', '--count', 'HEAD').trim(), '1', 'answering no commits nothing');
  });

  it('status, audit, report and errors escape a hostile project name, justification and path', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-safe-'));
    const name = 'Acme\u001b[2J\u001b]0;pwned\u0007\u202elmy.evil';
    assert.equal((await runSluice(dir, ['init', '--name', name])).code, 0);
    assert.equal((await runSluice(dir, ['skip', '--justification', 'ok\u001b[2A\u001b[2Kfine\u2066', '--confirmed'])).code, 0);
    const status = await runSluice(dir, ['status']);
    assert.equal(status.code, 0, status.stderr);
    assert.deepEqual(raw(status.stdout), []);
    assert.match(status.stdout, /Acme\\x1b\[2J\\x1b\]0;pwned\\x07\\u202elmy\.evil/);
    const audit = await runSluice(dir, ['audit']);
    assert.deepEqual(raw(audit.stdout + audit.stderr), []);
    assert.match(audit.stdout, /Acme\\x1b\[2J/);
    const json = await runSluice(dir, ['status', '--json']);
    assert.deepEqual(raw(json.stdout), [], 'JSON escapes bidi characters too');
    assert.equal(JSON.parse(json.stdout).project, name, 'and still carries the exact value');

    assert.equal((await runSluice(dir, ['report', '--all'])).code, 0);
    const reports = join(dir, '.sdlc', 'reports');
    for (const file of readdirSync(reports).filter((f) => f.endsWith('.html'))) assert.deepEqual(raw(readFileSync(join(reports, file), 'utf8')), [], file);

    const missing = await runSluice(join(dir, 'no\u001b[2Jsuch\u202efolder'), ['status']);
    assert.equal(missing.code, 2);
    assert.deepEqual(raw(missing.stderr), []);
    assert.match(missing.stderr, /no\\x1b\[2Jsuch\\u202efolder/);
  });
});
