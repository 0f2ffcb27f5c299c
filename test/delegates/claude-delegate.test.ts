import assert from 'node:assert/strict';
import { stat } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { fakeSetup, nastyPrompt, processRuns, recordedPids, waitGone } from './fake-cli-harness.ts';
import { answeringRequest as req } from '../helpers/delegate-request.ts';

const WRITE_FLAGS = ['acceptEdits', 'bypassPermissions', '--dangerously-skip-permissions', '--allowedTools'];

describe('claude delegate: success', () => {
  it('runs claude -p with stream-json, prompt on stdin, and carries result, session, cost and turns', async () => {
    const f = await fakeSetup();
    const r = await f.kernel.runDelegate('claude', req(f.root, 'Summarise the README', { mode: 'write', model: 'opus', maxTurns: 4, resumeSession: 'sess-0' }));
    assert.equal(r.status, 'ok', r.error ?? '');
    assert.equal(r.text, 'fake claude answer to: Summarise the README');
    assert.equal(r.sessionId, 'sess-fake-1');
    assert.equal(r.costUsd, 0.0123);
    assert.equal(r.numTurns, 3);
    assert.equal(r.exitCode, 0);
    const [rec] = await f.records('claude');
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
    const f = await fakeSetup({}, { claude: { outputFormat: 'json' } });
    const r = await f.kernel.runDelegate('claude', req(f.root, 'hello'));
    assert.equal(r.status, 'ok', r.error ?? '');
    assert.equal(r.sessionId, 'sess-fake-1');
    const [rec] = await f.records('claude');
    assert.deepEqual(rec.argv.slice(0, 3), ['-p', '--output-format', 'json']);
    assert.ok(!rec.argv.includes('--verbose'));
  });

  it('gives analysis runs plan mode and never a write flag, even from config args', async () => {
    const f = await fakeSetup({}, { claude: { writeArgs: ['--dangerously-skip-permissions'] } });
    await f.kernel.runDelegate('claude', req(f.root, 'look only'));
    const [rec] = await f.records('claude');
    assert.deepEqual(rec.argv.slice(rec.argv.indexOf('--permission-mode'), rec.argv.indexOf('--permission-mode') + 2), ['--permission-mode', 'plan']);
    for (const flag of WRITE_FLAGS) assert.ok(!rec.argv.includes(flag), `analysis got ${flag}`);
    const bad = await fakeSetup({}, { claude: { args: ['--dangerously-skip-permissions'] } });
    await assert.rejects(
      bad.kernel.runDelegate('claude', req(bad.root, 'look only')),
      (e: Error & { code?: string; field?: string }) => e.code === 'CONFIG_INVALID' && e.field === 'delegates.claude.args',
    );
    assert.equal((await bad.records('claude')).length, 0, 'nothing was started');
  });

  it('delivers a prompt with quotes, $(), backticks, newlines and 200 KB byte for byte', async () => {
    const f = await fakeSetup();
    const prompt = nastyPrompt();
    assert.ok(Buffer.byteLength(prompt) > 200 * 1024);
    const r = await f.kernel.runDelegate('claude', req(f.root, prompt));
    assert.equal(r.status, 'ok', r.error ?? '');
    const [rec] = await f.records('claude');
    assert.ok(rec.stdin.equals(Buffer.from(prompt)), 'stdin differs from the prompt');
  });
});

describe('claude delegate: failure shapes', () => {
  it('is_error: true with exit 1 is a failure carrying the message, not retried', async () => {
    const f = await fakeSetup();
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:is-error]] edit it'));
    assert.equal(r.status, 'error');
    assert.equal(r.exitCode, 1);
    assert.match(r.error!, /permission denied for Edit/);
    assert.equal(r.tries, 1);
    assert.equal(r.sessionId, 'sess-fake-1');
  });

  it('empty output is a failure', async () => {
    const f = await fakeSetup();
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:empty]]'));
    assert.equal(r.status, 'error');
    assert.match(r.error!, /printed nothing/);
  });

  it('garbage instead of JSON is a failure naming what came out', async () => {
    const f = await fakeSetup({}, { claude: { outputFormat: 'json' } });
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:garbage]]'));
    assert.equal(r.status, 'error');
    assert.match(r.error!, /no result object.*garbage/);
  });

  it('a non-zero exit reports the code and the end of stderr', async () => {
    const f = await fakeSetup();
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:stderr-exit]]'));
    assert.equal(r.status, 'error');
    assert.equal(r.exitCode, 3);
    assert.match(r.error!, /exited with code 3: claude: error: authentication required/);
    assert.match(await import('node:fs/promises').then((fs) => fs.readFile(r.transcriptPath, 'utf8')), /authentication required/);
  });

  it('retries a rate limit with backoff and reports the tries', async () => {
    const f = await fakeSetup();
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:rate-limit-once]] go'));
    assert.equal(r.status, 'ok', r.error ?? '');
    assert.equal(r.tries, 2);
    assert.equal((await f.records('claude')).length, 2);
  });
});

describe('claude delegate: time, cancellation and processes', () => {
  it('kills a hung CLI at the timeout', async () => {
    const f = await fakeSetup();
    // Long enough for the fake (a node process) to start and record its pid on a loaded machine.
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:hang]]', { timeoutMs: 6000 }));
    assert.equal(r.status, 'timeout');
    assert.match(r.error!, /did not finish within 6 s/);
    const [rec] = await f.records('claude');
    assert.deepEqual(await waitGone([rec.pid]), []);
  });

  it('kills a child that ignores SIGTERM and its grandchild: no process survives', async () => {
    const f = await fakeSetup();
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:ignore-term]]', { timeoutMs: 6000 }));
    assert.equal(r.status, 'timeout');
    const [pids] = await recordedPids(f.recordDir, 'claude');
    assert.ok(pids, 'the fake recorded its pids');
    assert.deepEqual(await waitGone([pids.child, pids.grandchild]), [], 'child or grandchild survived');
  });

  it('cancels on AbortSignal and kills the process group', async () => {
    const f = await fakeSetup();
    const finished = new Promise<string>((done) => f.kernel.hooks.on('delegate:finish', 'test', (e) => void done(e.status)));
    const controller = new AbortController();
    const run = f.kernel.runDelegate('claude', req(f.root, '[[fake:ignore-term]]'), { signal: controller.signal });
    // Until the fake has started, however long that takes on a loaded machine (the file's time limit catches a hang).
    while ((await recordedPids(f.recordDir, 'claude')).length === 0) await new Promise((r) => setTimeout(r, 50));
    controller.abort();
    assert.equal((await run).status, 'cancelled');
    assert.equal(await finished, 'cancelled');
    const [pids] = await recordedPids(f.recordDir, 'claude');
    assert.deepEqual(await waitGone([pids.child, pids.grandchild]), []);
    assert.equal(processRuns(pids.child), false);
  });

  it('streams 50 MB of output to the transcript while the result stays bounded', async () => {
    const f = await fakeSetup();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 25);
    const r = await f.kernel.runDelegate('claude', req(f.root, '[[fake:big]]', { timeoutMs: 300_000 }));
    clearInterval(sampler);
    assert.equal(r.status, 'ok', r.error ?? '');
    assert.equal(r.text, 'fake claude answer to: [[fake:big]]');
    assert.ok((await stat(r.transcriptPath)).size > 50 * 1024 * 1024, 'transcript holds everything');
    const grownMb = (peak - before) / 1024 / 1024;
    assert.ok(grownMb < 45, `memory grew by ${grownMb.toFixed(1)} MB while streaming 50 MB`);
  });
});
