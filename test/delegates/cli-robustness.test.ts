import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startSluice, type CliResult } from '../hardening/cli-bundle.ts';
import { fakeBin } from './delegate-kernel.ts';
import { processRuns, recordedPids, waitGone } from './fake-cli-harness.ts';
import { makeRepo } from '../lifecycle/lifecycle-fixture.ts';

/**
 * Real AI CLIs' failure shapes (hang, offline retry loop, daemon holding stdout, JSON error result,
 * sluice itself being sent SIGTERM/SIGHUP) against the built CLI. No assertion on how long anything
 * took: outcomes and messages only; a guard kills a sluice that never ends and fails the test.
 */
const leftovers = new Set<number>();
const killAll = () => {
  for (const pid of leftovers) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // gone
    }
  }
};
after(killAll);

async function project(settings: Record<string, unknown> = {}) {
  const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
  const record = await mkdtemp(join(tmpdir(), 'sluice-robust-record-'));
  const claude = { env: { FAKE_CLI_RECORD: record }, killGrace: 0.3, ...settings };
  await writeFile(join(root, 'sluice.config.yaml'), JSON.stringify({ delegates: { claude } }));
  return { root, record };
}

const env = () => ({ PATH: `${fakeBin}:${process.env.PATH}` });

/** Runs sluice; a run still going after `guardMs` is killed and reported as hung. */
async function sluice(root: string, args: string[], guardMs = 120_000): Promise<CliResult & { hung: boolean }> {
  const run = startSluice(root, args, env());
  if (run.child.pid) leftovers.add(run.child.pid);
  let hung = false;
  const guard = setTimeout(() => ((hung = true), run.child.kill('SIGKILL')), guardMs);
  const r = await run.done;
  clearTimeout(guard);
  return { ...r, hung };
}

async function daemonPids(record: string): Promise<number[]> {
  const files = (await readdir(record)).filter((f) => f.includes('-daemon-'));
  const pids = await Promise.all(files.map(async (f) => JSON.parse(await readFile(join(record, f), 'utf8')).daemon as number));
  for (const pid of pids) leftovers.add(pid);
  return pids;
}

describe('signals to sluice', () => {
  for (const [signal, code] of [['SIGTERM', 143], ['SIGHUP', 129]] as const) {
    it(`${signal} kills the AI CLI's whole process group, then sluice exits ${code}`, async () => {
      const { root, record } = await project();
      const run = startSluice(root, ['delegate', '--to', 'claude', '--mode', 'write', '[[fake:ignore-term]]'], env());
      let pids: { child: number; grandchild: number } | undefined;
      for (let i = 0; i < 1200 && !pids; i++) {
        [pids] = await recordedPids(record, 'claude');
        if (!pids) await new Promise((r) => setTimeout(r, 50));
      }
      assert.ok(pids, 'the fake CLI started');
      leftovers.add(pids.child).add(pids.grandchild);
      run.child.kill(signal);
      const r = await run.done;
      assert.equal(r.code, code, r.stderr);
      assert.match(r.stderr, /cancelled/);
      assert.deepEqual(await waitGone([pids.child, pids.grandchild], 10_000), [], 'nothing of the CLI group survives');
    });
  }
});

describe('timeouts and budgets', () => {
  it('--timeout holds when the CLI leaves a daemon holding stdout', async () => {
    const { root, record } = await project();
    const r = await sluice(root, ['delegate', '--to', 'claude', '--timeout', '2', '--json', '[[fake:daemon]]']);
    const daemons = await daemonPids(record);
    assert.equal(r.hung, false, 'sluice waited for the daemon to close stdout');
    assert.equal(r.code, 1, r.stderr);
    assert.equal(JSON.parse(r.stdout).status, 'timeout');
    assert.ok(daemons.some(processRuns), 'the daemon really outlived the run (the shape under test)');
  });

  it('an answer is not held back by a daemon that keeps stdout open after the CLI exits', async () => {
    const { root, record } = await project();
    const r = await sluice(root, ['delegate', '--to', 'claude', '--timeout', '300', '[[fake:daemon-exit]]']);
    await daemonPids(record);
    assert.equal(r.hung, false);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /fake claude answer/);
  });

  it('an offline CLI failing slowly is bounded by ONE budget across retries, with heartbeat lines meanwhile', async () => {
    const { root } = await project({ heartbeat: 0.2 });
    // Each attempt fails (retryably) after ~2 s; three of them would take over 6 s.
    const r = await sluice(root, ['delegate', '--to', 'claude', '--timeout', '6', '--json', '[[fake:offline=2000]]']);
    assert.equal(r.hung, false);
    const out = JSON.parse(r.stdout);
    assert.ok(out.tries <= 2, `tries ${out.tries}`);
    assert.ok(out.status === 'timeout' || /budget of 6 s is used up/.test(out.error), out.error);
    assert.match(r.stderr, /delegate claude: claude still running after \d+ s \(attempt 1\/3[^)]*\); last event: system (?:init|api_retry attempt \d+\/10 \(unknown\))/);
  });
});

describe('failure messages', () => {
  it('show claude\u2019s own error from its JSON result, on stderr, and nothing on stdout', async () => {
    const { root } = await project();
    const r = await sluice(root, ['delegate', '--to', 'claude', 'hello [[fake:not-logged-in]]']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /DELEGATE_FAILED: claude run error: claude exited with code 1: Not logged in · Please run \/login/);
    assert.doesNotMatch(r.stderr, /"type":"result"/);
    assert.equal(r.stdout, '');
  });

  it('show the line of stderr that names the error, not a trailing --help hint', async () => {
    const { root } = await project();
    const r = await sluice(root, ['delegate', '--to', 'claude', 'hello [[fake:help-hint]]']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /claude exited with code 2: error: unknown option '--bogus'/);
    assert.doesNotMatch(r.stderr, /For more information/);
  });
});

describe('lifecycle run with a backend that cannot answer', () => {
  it('records no WORKFLOW_BLOCKED for a backend that is not logged in, and says how to go on', async () => {
    const root = await makeRepo({ 'sluice.config.yaml': JSON.stringify({ delegates: { claude: { env: { FAKE_CLI_BEHAVIOUR: 'not-logged-in' }, killGrace: 0.3 } } }) });
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
    const unblock = await sluice(root, ['lifecycle', 'record', 'feat', 'unblock', '--resolution', 'wrote the plan', '--orchestrator', command[1].split(' ').at(-1)!]);
    assert.equal(unblock.code, 0, unblock.stderr);
  });
});

describe('script delegate patterns', () => {
  it('a catastrophic-backtracking match: cannot block sluice: it answers (linear-time matching)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
    await writeFile(join(root, 's.json'), JSON.stringify({ version: 1, rules: [{ match: '^(a+)+$', reply: 'matched' }], default: 'no rule matched' }));
    const r = await sluice(root, ['delegate', '--to', 'script', '--script', 's.json', '--timeout', '5', `${'a'.repeat(60)}b`], 60_000);
    assert.equal(r.hung, false, 'the event loop was blocked');
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), 'no rule matched');
  });

  it('a runaway pattern RE2 cannot run (lookaround) is stopped at its time limit, naming the file and rule', async () => {
    const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
    await writeFile(join(root, 's.json'), JSON.stringify({ version: 1, rules: [{ match: '^(a+)+(?!c)$', reply: 'matched' }], default: 'no rule matched' }));
    const r = await sluice(root, ['delegate', '--to', 'script', '--script', 's.json', `${'a'.repeat(60)}b`], 60_000);
    assert.equal(r.hung, false, 'the event loop was blocked');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /SCRIPT_INVALID.*s\.json.*rules\.0\.match.*took over 5 s on this prompt and was stopped/s);
  });
});

describe('agy specifics', () => {
  async function agyProject(env: Record<string, string> = {}) {
    const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
    const record = await mkdtemp(join(tmpdir(), 'sluice-robust-record-'));
    const agy = { env: { FAKE_CLI_RECORD: record, FAKE_CLI_STATE: join(record, 'state'), ...env }, killGrace: 0.3 };
    await writeFile(join(root, 'sluice.config.yaml'), JSON.stringify({ delegates: { agy } }));
    const records = async () => Promise.all((await readdir(record)).filter((f) => /^agy-\d+\.json$/.test(f)).map(async (f) => ({ ...JSON.parse(await readFile(join(record, f), 'utf8')), stdin: await readFile(join(record, f.replace('.json', '.stdin')), 'utf8') })));
    return { root, records };
  }

  it('sets --print-timeout below sluice\u2019s clock and reads agy\u2019s "print timeout" warning as a timeout, not an answer', async () => {
    const { root, records } = await agyProject();
    const r = await sluice(root, ['delegate', '--to', 'agy', '--timeout', '60', '--json', '[[fake:partial-timeout]]']);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, 'timeout');
    assert.match(out.error, /--print-timeout expired mid-turn \(54s\); the answer is cut off/);
    const [rec] = await records();
    assert.equal(rec.argv[rec.argv.indexOf('--print-timeout') + 1], '54s');
  });

  it('retries only what AGY_ERROR marks retryable, and shows its short_error', async () => {
    const once = await agyProject();
    const ok = await sluice(once.root, ['delegate', '--to', 'agy', '--json', '[[fake:agy-error-once]]']);
    assert.equal(ok.code, 0, ok.stderr);
    assert.equal(JSON.parse(ok.stdout).tries, 2);
    const final = await agyProject();
    const r = await sluice(final.root, ['delegate', '--to', 'agy', '--json', '[[fake:agy-error-final]]']);
    assert.equal(r.code, 1);
    const out = JSON.parse(r.stdout);
    assert.equal(out.tries, 1, 'retryable: false is final even though the text says "rate limit"');
    assert.match(out.error, /agy exited with code 3: rate limit: daily quota used up \(error id E-4711\)/);
  });

  it('reports exit 2 as a rejected flag, naming the installed version', async () => {
    const { root } = await agyProject({ FAKE_AGY_VERSION: '1.1.8' });
    const r = await sluice(root, ['delegate', '--to', 'agy', '[[fake:old-flags]]']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /agy 1\.1\.8 rejected a flag \(older than 1\.1\.12\? update agy\): flag provided but not defined: -print-timeout/);
  });

  it('never passes a prompt starting with - or / where agy could read it as a flag or slash command', async () => {
    const { root, records } = await agyProject();
    for (const prompt of ['-v tell me a joke', '/help me write tests']) {
      const r = await sluice(root, ['delegate', '--to', 'agy', '--', prompt]);
      assert.equal(r.code, 0, r.stderr);
    }
    const recs = await records();
    assert.equal(recs.length, 2);
    for (const rec of recs) {
      assert.equal(rec.argv.includes('-p'), false, `prompt on argv: ${rec.argv.join(' ')}`);
      assert.doesNotMatch(rec.stdin, /^\s*\//, 'stdin starts like a slash command');
    }
    assert.ok(recs.some((rec) => rec.stdin.endsWith('/help me write tests')));
  });
});

describe('analysis runs are read-only for every backend', () => {
  for (const backend of ['claude', 'agy', 'codex']) {
    it(`${backend}: an analysis run that changed the project fails with WORKSPACE_CHANGED naming the path; a write run may`, async () => {
      const root = await mkdtemp(join(tmpdir(), 'sluice-robust-'));
      await writeFile(join(root, 'sluice.config.yaml'), JSON.stringify({ delegates: { [backend]: { killGrace: 0.3 } } }));
      const analysis = await sluice(root, ['delegate', '--to', backend, '--mode', 'analysis', '--json', 'look only [[fake:edit-anyway]]']);
      assert.equal(analysis.code, 1, analysis.stderr);
      const out = JSON.parse(analysis.stdout);
      assert.equal(out.status, 'error');
      assert.match(out.error, /^WORKSPACE_CHANGED: the analysis run changed 1 path it may only read: sneaky-edit\.txt$/);
      const write = await sluice(root, ['delegate', '--to', backend, '--mode', 'write', 'edit [[fake:edit-anyway]]']);
      assert.equal(write.code, 0, write.stderr);
    });
  }
});
