import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { mkdtemp, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { cliBundle } from '../hardening/cli-bundle.ts';
import { makeRepo } from '../lifecycle/lifecycle-fixture.ts';
import { env, reapAfterTests, remember, sluice, trust } from './real-cli-shapes.ts';

/** lifecycle run with a dead backend, script patterns that cannot stall sluice, read-only analysis runs (see real-cli-shapes.ts). */
reapAfterTests();

describe('lifecycle run with a backend that cannot answer', () => {
  it('records no WORKFLOW_BLOCKED for a backend that is not logged in, and says how to go on', async () => {
    const root = await makeRepo({
      'sluice.config.yaml': JSON.stringify({ delegates: { claude: { env: { FAKE_CLI_BEHAVIOUR: 'not-logged-in' }, killGrace: 0.3 } } }),
    });
    await trust(root);
    assert.equal((await sluice(root, ['lifecycle', 'start', 'feat', '--goal', 'parse durations'])).code, 0);
    const r = await sluice(root, ['lifecycle', 'run', 'feat', '--to', 'claude', '--json']);
    assert.equal(r.code, 1, r.stderr);
    const [req] = JSON.parse(r.stdout).requirements;
    assert.equal(req.outcome, 'failed');
    assert.equal(req.error.code, 'DELEGATE_FAILED');
    assert.match(req.error.message, /Not logged in · Please run \/login.*nothing was recorded.*`sluice lifecycle run feat --to claude`/);
    const status = await sluice(root, ['lifecycle', 'status', 'feat', '--json']);
    assert.notEqual(JSON.parse(status.stdout).requirements[0].status, 'WORKFLOW_BLOCKED');
  });

  it('names the exact unblock command, with the runner\u2019s --orchestrator, when a stage does block', async () => {
    const root = await makeRepo({ 'script.json': JSON.stringify({ version: 1, rules: [], default: { text: 'I wrote nothing' } }) });
    assert.equal((await sluice(root, ['lifecycle', 'start', 'feat', '--goal', 'parse durations'])).code, 0);
    const r = await sluice(root, ['lifecycle', 'run', 'feat', '--to', 'script', '--script', 'script.json', '--attempts', '1']);
    assert.equal(r.code, 1, r.stderr);
    const command = /once resolved: (sluice lifecycle record feat unblock --resolution "<what was fixed>" --orchestrator \S+)/.exec(r.stdout);
    assert.ok(command, r.stdout);
    const unblock = await sluice(root, [
      'lifecycle',
      'record',
      'feat',
      'unblock',
      '--resolution',
      'wrote the plan',
      '--orchestrator',
      command[1].split(' ').at(-1)!,
    ]);
    assert.equal(unblock.code, 0, unblock.stderr);
  });
});

/** A new project whose script s.json has one rule, matching `match`, and a default reply for the rest. */
async function scriptWithRule(match: string) {
  const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
  await writeFile(join(root, 's.json'), JSON.stringify({ version: 1, rules: [{ match, reply: 'matched' }], default: 'no rule matched' }));
  return root;
}

/** A new project whose config sets these delegate settings, trusted as a CI host would trust it. */
async function trustedProject(delegates: Record<string, Record<string, unknown>>) {
  const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
  await writeFile(join(root, 'sluice.config.yaml'), JSON.stringify({ delegates }));
  await trust(root);
  return root;
}

describe('script delegate patterns', () => {
  it('a catastrophic-backtracking match: cannot block sluice: it answers (linear-time matching)', async () => {
    const root = await scriptWithRule('^(a+)+$');
    const r = await sluice(root, ['delegate', '--to', 'script', '--script', 's.json', '--timeout', '5', `${'a'.repeat(60)}b`], 60_000);
    assert.equal(r.hung, false, 'the event loop was blocked');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'no rule matched');
  });

  it('a runaway pattern RE2 cannot run (lookaround) is stopped at its time limit, naming the file and rule', async () => {
    const root = await scriptWithRule('^(a+)+(?!c)$');
    const r = await sluice(root, ['delegate', '--to', 'script', '--script', 's.json', `${'a'.repeat(60)}b`], 60_000);
    assert.equal(r.hung, false, 'the event loop was blocked');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /SCRIPT_INVALID.*s\.json.*rules\.0\.match.*took over 5 s on this prompt and was stopped/s);
  });
});

describe('analysis runs are read-only for every backend, without the OS sandbox too', () => {
  for (const backend of ['claude', 'agy', 'codex']) {
    it(`${backend}: an unsandboxed analysis run that changed the project fails with WORKSPACE_CHANGED naming the path; a write run may`, async () => {
      const root = await trustedProject({ [backend]: { killGrace: 0.3 } });
      // The sandbox refuses the edit itself (test/delegates/os-sandbox.test.ts); the check after the run is for runs without one.
      const analysis = await sluice(root, ['delegate', '--to', backend, '--mode', 'analysis', '--sandbox', 'off', '--json', 'look only [[fake:edit-anyway]]']);
      assert.equal(analysis.code, 1, analysis.stderr);
      const out = JSON.parse(analysis.stdout);
      assert.equal(out.status, 'error');
      assert.match(out.error?.message, /^WORKSPACE_CHANGED: the analysis run changed 1 path it may only read: sneaky-edit\.txt$/);
      const write = await sluice(root, ['delegate', '--to', backend, '--mode', 'write', 'edit [[fake:edit-anyway]]']);
      assert.equal(write.code, 0, write.stderr);
    });
  }
});

describe('what sluice itself writes is not the analysis run\u2019s change', () => {
  it('stderr redirected to a file in the project (heartbeat lines landing in it) passes the check', async () => {
    const root = await trustedProject({ claude: { heartbeat: 0.1, killGrace: 0.3 } });
    const log = openSync(join(root, 'sluice-stderr.log'), 'w');
    const child = spawn(process.execPath, [cliBundle(), '--cwd', root, 'delegate', '--to', 'claude', '--mode', 'analysis', 'look [[fake:sleep=800]]'], {
      env: { ...process.env, ...env(root), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', log],
    });
    closeSync(log);
    if (child.pid) remember(child.pid);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const stderr = await readFile(join(root, 'sluice-stderr.log'), 'utf8');
    assert.equal(code, 0, stderr);
    assert.match(stderr, /still running/, 'sluice wrote into the file during the run (the case under test)');
  });
});
