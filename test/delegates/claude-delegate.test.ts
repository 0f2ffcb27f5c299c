import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { assertAnswered, fakeRun, fakeSetup, nastyPrompt, processRuns, startedPids, waitGone } from './fake-cli-harness.ts';

const WRITE_FLAGS = ['acceptEdits', 'bypassPermissions', '--dangerously-skip-permissions', '--allowedTools'];

describe('claude delegate: success', () => {
  it('runs claude -p with stream-json, prompt on stdin, and carries result, session, cost and turns', async () => {
    const { f, r, rec } = await fakeRun('claude', 'Summarise the README', { mode: 'write', model: 'opus', maxTurns: 4, resumeSession: 'sess-0' });
    assertAnswered(r, { text: 'fake claude answer to: Summarise the README', sessionId: 'sess-fake-1', costUsd: 0.0123, numTurns: 3, exitCode: 0 });
    assert.deepEqual(rec.argv, [
      '-p',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      'acceptEdits',
      '--model',
      'opus',
      '--max-turns',
      '4',
      '--resume',
      'sess-0',
    ]);
    assert.equal(rec.stdin.toString(), 'Summarise the README');
    assert.equal(rec.cwd, f.root);
  });

  it('parses the single result object of --output-format json', async () => {
    const { r, rec } = await fakeRun('claude', 'hello', {}, { claude: { outputFormat: 'json' } });
    assertAnswered(r, { sessionId: 'sess-fake-1' });
    assert.deepEqual(rec.argv.slice(0, 3), ['-p', '--output-format', 'json']);
    assert.ok(!rec.argv.includes('--verbose'));
  });

  it('gives analysis runs plan mode and never a write flag, even from config args', async () => {
    const { rec } = await fakeRun('claude', 'look only', {}, { claude: { writeArgs: ['--dangerously-skip-permissions'] } });
    assert.deepEqual(rec.argv.slice(rec.argv.indexOf('--permission-mode'), rec.argv.indexOf('--permission-mode') + 2), ['--permission-mode', 'plan']);
    for (const flag of WRITE_FLAGS) assert.ok(!rec.argv.includes(flag), `analysis got ${flag}`);
    const bad = await fakeSetup({}, { claude: { args: ['--dangerously-skip-permissions'] } });
    await assert.rejects(
      bad.run('claude', 'look only'),
      (e: Error & { code?: string; field?: string }) => e.code === 'CONFIG_INVALID' && e.field === 'delegates.claude.args',
    );
    assert.equal((await bad.records('claude')).length, 0, 'nothing was started');
  });

  it('delivers a prompt with quotes, $(), backticks, newlines and 200 KB byte for byte', async () => {
    const prompt = nastyPrompt();
    assert.ok(Buffer.byteLength(prompt) > 200 * 1024);
    const { r, rec } = await fakeRun('claude', prompt);
    assertAnswered(r);
    assert.ok(rec.stdin.equals(Buffer.from(prompt)), 'stdin differs from the prompt');
  });
});

describe('claude delegate: failure shapes', () => {
  it('is_error: true with exit 1 is a failure carrying the message, not retried', async () => {
    const { r } = await fakeRun('claude', '[[fake:is-error]] edit it');
    assert.equal(r.status, 'error');
    assert.equal(r.exitCode, 1);
    assert.match(r.error!, /permission denied for Edit/);
    assert.equal(r.tries, 1);
    assert.equal(r.sessionId, 'sess-fake-1');
  });

  it('empty output is a failure', async () => {
    const { r } = await fakeRun('claude', '[[fake:empty]]');
    assert.equal(r.status, 'error');
    assert.match(r.error!, /printed nothing/);
  });

  it('garbage instead of JSON is a failure naming what came out', async () => {
    const { r } = await fakeRun('claude', '[[fake:garbage]]', {}, { claude: { outputFormat: 'json' } });
    assert.equal(r.status, 'error');
    assert.match(r.error!, /no result object.*garbage/);
  });

  it('a non-zero exit reports the code and the end of stderr', async () => {
    const { r } = await fakeRun('claude', '[[fake:stderr-exit]]');
    assert.equal(r.status, 'error');
    assert.equal(r.exitCode, 3);
    assert.match(r.error!, /exited with code 3: claude: error: authentication required/);
    assert.match(await import('node:fs/promises').then((fs) => fs.readFile(r.transcriptPath, 'utf8')), /authentication required/);
  });

  it('retries a rate limit with backoff and reports the tries', async () => {
    const { f, r } = await fakeRun('claude', '[[fake:rate-limit-once]] go');
    assertAnswered(r, { tries: 2 });
    assert.equal((await f.records('claude')).length, 2);
  });
});

describe('claude delegate: time, cancellation and processes', () => {
  it('kills a hung CLI at the timeout', async () => {
    // Long enough for the fake (a node process) to start and record its pid on a loaded machine.
    const { r, rec } = await fakeRun('claude', '[[fake:hang]]', { timeoutMs: 6000 });
    assert.equal(r.status, 'timeout');
    assert.match(r.error!, /did not finish within 6 s/);
    assert.deepEqual(await waitGone([rec.pid]), []);
  });

  it('kills a child that ignores SIGTERM and its grandchild: no process survives', async () => {
    const { f, r } = await fakeRun('claude', '[[fake:ignore-term]]', { timeoutMs: 6000 });
    assert.equal(r.status, 'timeout');
    const [pids] = await f.pids('claude');
    assert.ok(pids, 'the fake recorded its pids');
    assert.deepEqual(await waitGone([pids.child, pids.grandchild]), [], 'child or grandchild survived');
  });

  it('cancels on AbortSignal and kills the process group', async () => {
    const f = await fakeSetup();
    const finished = new Promise<string>((done) => f.kernel.hooks.on('delegate:finish', 'test', (e) => void done(e.status)));
    const controller = new AbortController();
    const run = f.run('claude', '[[fake:ignore-term]]', {}, { signal: controller.signal });
    await startedPids(f.recordDir, 'claude');
    controller.abort();
    assert.equal((await run).status, 'cancelled');
    assert.equal(await finished, 'cancelled');
    const [pids] = await f.pids('claude');
    assert.deepEqual(await waitGone([pids.child, pids.grandchild]), []);
    assert.equal(processRuns(pids.child), false);
  });

  it('streams 50 MB of output to the transcript while the result stays bounded', async () => {
    const f = await fakeSetup();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    const r = await f.run('claude', '[[fake:big]]', { timeoutMs: 300_000 });
    clearInterval(sampler);
    assertAnswered(r, { text: 'fake claude answer to: [[fake:big]]' });
    assert.ok((await stat(r.transcriptPath)).size > 50 * 1024 * 1024, 'transcript holds everything');
    const grownMb = (peak - before) / 1024 / 1024;
    assert.ok(grownMb < 45, `memory grew by ${grownMb.toFixed(1)} MB while streaming 50 MB`);
  });
});
