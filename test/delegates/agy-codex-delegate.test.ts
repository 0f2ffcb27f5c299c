import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { stat } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { assertAnswered, fakeRun, fakeSetup, nastyPrompt, waitGone } from './fake-cli-harness.ts';

describe('agy delegate', () => {
  it('runs agy -p PROMPT --output-format json --print-timeout, parsing its raw-newline envelope', async () => {
    const { f, r, rec } = await fakeRun('agy', 'Say "hi" $(now)', { mode: 'write', model: 'gemini-3-pro', timeoutMs: 90_000 });
    assertAnswered(r, { text: 'fake agy answer to: Say "hi" $(now)\n', sessionId: 'conv-fake-1', numTurns: 1 });
    assert.deepEqual(rec.argv, [
      '-p',
      'Say "hi" $(now)',
      '--output-format',
      'json',
      '--print-timeout',
      '81s',
      '--dangerously-skip-permissions',
      '--model',
      'gemini-3-pro',
    ]);
    assert.equal(rec.cwd, f.root, 'write runs work in the project');
  });

  it('runs analysis in plan mode in a scratch folder of its own, with the project added, and removes the folder', async () => {
    const f = await fakeSetup();
    const runs = await Promise.all([1, 2].map(() => f.run('agy', 'look')));
    assert.deepEqual(
      runs.map((r) => r.status),
      ['ok', 'ok'],
    );
    const recs = await f.records('agy');
    assert.equal(recs.length, 2);
    assert.notEqual(recs[0].cwd, recs[1].cwd, 'two runs shared a working directory');
    for (const rec of recs) {
      assert.notEqual(rec.cwd, f.root);
      assert.ok(rec.argv.includes('--mode') && rec.argv[rec.argv.indexOf('--mode') + 1] === 'plan');
      assert.ok(!rec.argv.includes('--dangerously-skip-permissions'));
      assert.equal(rec.argv[rec.argv.indexOf('--add-dir') + 1], f.root);
      assert.equal(existsSync(rec.cwd), false, 'scratch folder left behind');
    }
  });

  it('passes a prompt too big for argv on stdin, byte for byte', async () => {
    const prompt = nastyPrompt();
    const { f, r, rec } = await fakeRun('agy', prompt);
    assertAnswered(r);
    assert.ok(!rec.argv.includes('-p'));
    assert.ok(rec.stdin.equals(Buffer.from(prompt)));
    const small = 'quotes \' " $(x) `y`\nline two';
    await f.run('agy', small, { mode: 'write' });
    const rec2 = (await f.records('agy')).find((x) => x.argvPrompt !== undefined)!;
    assert.equal(rec2.argvPrompt, small);
  });

  it('treats empty output, an ERROR envelope and a hang as failures', async () => {
    const f = await fakeSetup();
    const empty = await f.run('agy', '[[fake:empty]]');
    assert.equal(empty.status, 'error');
    assert.match(empty.error!, /printed nothing/);
    const failed = await f.run('agy', '[[fake:is-error]]');
    assert.equal(failed.status, 'error');
    assert.match(failed.error!, /model "nope" is not available/);
    const hung = await f.run('agy', '[[fake:hang]]', { timeoutMs: 1500 });
    assert.equal(hung.status, 'timeout');
    const garbage = await f.run('agy', '[[fake:garbage]]');
    assert.equal(garbage.status, 'error');
    assert.match(garbage.error!, /not the expected JSON envelope/);
  });
});

describe('codex delegate', () => {
  it('runs codex exec - --json with the prompt on stdin and reads the JSONL events', async () => {
    const prompt = nastyPrompt();
    const { r, rec } = await fakeRun('codex', prompt, { model: 'gpt-5' });
    assertAnswered(r, {
      text: `fake codex answer to: ${prompt.split('\n')[0].slice(0, 80)}`,
      sessionId: 'th-fake-1',
      json: { usage: { input_tokens: 100, cached_input_tokens: 0, output_tokens: 20 } },
    });
    assert.deepEqual(rec.argv, ['exec', '-', '--json', '--sandbox', 'read-only', '--skip-git-repo-check', '--model', 'gpt-5']);
    assert.ok(rec.stdin.equals(Buffer.from(prompt)));
  });

  it('maps write mode to the workspace-write sandbox and refuses sandbox overrides in analysis', async () => {
    const { f, r: w, rec } = await fakeRun('codex', 'change it', { mode: 'write' }, { codex: { analysisArgs: ['--full-auto'] } });
    assertAnswered(w);
    assert.equal(rec.argv[rec.argv.indexOf('--sandbox') + 1], 'workspace-write');
    await assert.rejects(f.run('codex', 'look'), (e: Error & { code?: string }) => e.code === 'CONFIG_INVALID');
  });

  it('turn.failed and error events are failures; a recovered reconnect is not', async () => {
    const f = await fakeSetup({}, { codex: { retries: 1 } });
    const failed = await f.run('codex', '[[fake:is-error]]');
    assert.equal(failed.status, 'error');
    assert.match(failed.error!, /turn failed: sandbox denied/);
    assert.equal(failed.tries, 1);
    const limited = await f.run('codex', '[[fake:rate-limit]]');
    assert.equal(limited.status, 'error');
    assert.equal(limited.tries, 2, 'a 429 is transient and retried');
    const reconnected = await f.run('codex', '[[fake:reconnect]]');
    assertAnswered(reconnected);
    const garbage = await f.run('codex', '[[fake:garbage]]');
    assert.equal(garbage.status, 'error');
    assert.match(garbage.error!, /without turn\.completed/);
  });

  it('times out a codex that never finishes and leaves no process behind', async () => {
    // Long enough for the fake (a node process) to start and record its pids on a loaded machine.
    const { f, r } = await fakeRun('codex', '[[fake:ignore-term]]', { timeoutMs: 6000 });
    assert.equal(r.status, 'timeout');
    const [pids] = await f.pids('codex');
    assert.deepEqual(await waitGone([pids.child, pids.grandchild]), []);
  });

  it('reads 50 MB of events without holding them', async () => {
    const { r } = await fakeRun('codex', '[[fake:big]]', { timeoutMs: 300_000 });
    assertAnswered(r, { text: 'fake codex answer to: [[fake:big]]' });
    assert.ok((await stat(r.transcriptPath)).size > 50 * 1024 * 1024);
  });
});
