import assert from 'node:assert/strict';
import { chmod, mkdtemp, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DelegateRequest } from '../../core/index.ts';
import { delegateKernel, fakeBin, repoRoot, runSluice, sluiceDelegate, tempProject } from './delegate-kernel.ts';
import { assertAnswered, fakeSetup, startedPids, waitGone } from './fake-cli-harness.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { sluiceEntry } from '../helpers/run-cli.ts';
import { answeringRequest as req } from '../helpers/delegate-request.ts';

const node = (script: string, more: Record<string, unknown> = {}) => ({ command: process.execPath, args: ['-e', script, '--'], ...more });
const ECHO =
  "let d='';process.stdin.on('data',c=>d+=c).on('end',()=>process.stdout.write(JSON.stringify({mode:process.env.SLUICE_DELEGATE_MODE,argv:process.argv.slice(1),prompt:d})))";

/** A project whose shell delegate runs `node -e script` (`more`: further shell settings), and `ask`: one shell run there. */
async function shellProject(script: string, more: Record<string, unknown> = {}) {
  const root = await tempProject();
  const kernel = await delegateKernel(root, { delegates: { shell: node(script, more) } });
  return { root, kernel, ask: (prompt: string, extra: Partial<DelegateRequest> = {}) => kernel.runDelegate('shell', req(root, prompt, extra)) };
}

describe('shell delegate', () => {
  it('runs the configured command with the prompt on stdin, the mode in the environment and per-mode args', async () => {
    const { ask } = await shellProject(ECHO, { writeArgs: ['--apply'], analysisArgs: ['--dry-run'] });
    const prompt = 'it\'s "quoted" $(x) `y`\nsecond line';
    const a = await ask(prompt);
    assertAnswered(a);
    assert.deepEqual(JSON.parse(a.text), { mode: 'analysis', argv: ['--dry-run'], prompt });
    const w = await ask(prompt, { mode: 'write' });
    assert.deepEqual(JSON.parse(w.text).argv, ['--apply']);
  });

  it('parses JSON output when asked, taking its text field as the answer', async () => {
    const { ask } = await shellProject("process.stdout.write(JSON.stringify({text:'scored',score:7}))", { output: 'json' });
    const a = await ask('score it');
    assert.equal(a.text, 'scored');
    assert.deepEqual(a.json, { text: 'scored', score: 7 });
  });

  it('fails on a non-zero exit, on empty output and on non-JSON output in json mode', async () => {
    const e = await (await shellProject("console.error('model not loaded');process.exit(4)")).ask('x');
    assert.deepEqual([e.status, e.exitCode], ['error', 4]);
    assert.match(e.error!, /exited with code 4: model not loaded/);
    assert.match((await (await shellProject('')).ask('x')).error!, /printed nothing/);
    assert.match((await (await shellProject("process.stdout.write('plain words')", { output: 'json' })).ask('x')).error!, /not JSON/);
  });

  it('keeps the answer bounded when the command prints 50 MB; the transcript has it all', async () => {
    const big = "const b=Buffer.alloc(1<<20,97);let n=0;const w=()=>{while(n<50){n++;if(!process.stdout.write(b))return process.stdout.once('drain',w)}};w()";
    const a = await (await shellProject(big)).ask('x', { timeoutMs: 60_000 });
    assertAnswered(a);
    assert.ok(a.text.length <= 1.1 * 1024 * 1024, `text is ${a.text.length} characters`);
    assert.match(a.text, /characters cut; the full output is in the transcript|bytes not kept in memory/);
    assert.ok((await stat(a.transcriptPath)).size >= 50 * 1024 * 1024);
  });

  it('is unavailable until a command is configured (exit 2)', async () => {
    const root = await tempProject();
    const k = await delegateKernel(root);
    await assert.rejects(
      k.runDelegate('shell', req(root, 'x')),
      (e: Error & { code?: string; exitCode?: number }) => e.code === 'DELEGATE_UNAVAILABLE' && e.exitCode === 2,
    );
  });
});

describe('availability and sluice delegate', () => {
  const withoutFakes = (process.env.PATH ?? '')
    .split(':')
    .filter((d) => d !== fakeBin)
    .join(':');

  it('runs a CLI backend end to end: prints the answer, exits 0', async () => {
    const root = await tempProject();
    const r = await sluiceDelegate(root, ['--to', 'codex', '--mode', 'write', '-'], {
      input: 'Add a test\nfor the parser',
      env: { PATH: `${fakeBin}:${withoutFakes}` },
    });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'fake codex answer to: Add a test\n');
  });

  it('exits 1 with DELEGATE_FAILED and the full result under --json when the run fails or times out', async () => {
    const root = await tempProject();
    const env = { PATH: `${fakeBin}:${withoutFakes}` };
    const failed = await sluiceDelegate(root, ['--to', 'claude', '--json', '[[fake:is-error]]'], { env });
    assert.equal(failed.code, 1);
    const doc = JSON.parse(failed.stdout);
    assert.equal(doc.error.code, 'DELEGATE_FAILED');
    assert.equal(doc.status, 'error');
    assert.equal(doc.sessionId, 'sess-fake-1');
    const slow = await sluiceDelegate(root, ['--to', 'agy', '--timeout', '1', '[[fake:hang]]'], { env });
    assert.equal(slow.code, 1);
    assert.match(slow.stderr, /DELEGATE_FAILED: agy run timeout/);
  });

  it('exits 2 when the CLI is not on PATH or not executable, never falling back to another backend', async () => {
    const root = await tempProject();
    const missing = await sluiceDelegate(root, ['--to', 'claude', 'hello'], { env: { PATH: withoutFakes } });
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /DELEGATE_UNAVAILABLE: .*claude is not an executable on PATH/);
    assert.equal(missing.stdout, '');
    const dir = await mkdtemp(join(tmpdir(), 'sluice-path-'));
    await writeFile(join(dir, 'codex'), '#!/bin/sh\necho hi\n');
    await chmod(join(dir, 'codex'), 0o644);
    const k = await delegateKernel(root, { delegates: { codex: { env: { PATH: dir } } } });
    await assert.rejects(k.runDelegate('codex', req(root, 'x')), /codex is not an executable on PATH/);
    const bad = await sluiceDelegate(root, ['--to', 'claude', '--mode', 'sideways', 'x']);
    assert.equal(bad.code, 2);
  });

  it('lists every backend in sluice plugins with its availability', async () => {
    const f = await fakeSetup();
    const r = await runSluice(['plugins', '--cwd', f.root, '--json'], { cwd: f.root, env: { PATH: `${fakeBin}:${withoutFakes}` } });
    const delegates = JSON.parse(r.stdout).delegates as { name: string; available: boolean }[];
    assert.deepEqual(Object.fromEntries(delegates.map((d) => [d.name, d.available])), { claude: true, agy: true, codex: true, shell: false, script: true });
  });
});

describe('backend settings', () => {
  it('names the wrong field of a backend setting (CONFIG_INVALID, exit 2) and starts nothing', async () => {
    const f = await fakeSetup({}, { claude: { outputFormat: 'xml' }, agy: { promptVia: 'pigeon' } });
    await assert.rejects(f.run('claude', 'x'), (e: Error & { code?: string; field?: string; exitCode?: number }) => {
      assert.equal(e.code, 'CONFIG_INVALID');
      assert.equal(e.field, 'delegates.claude.outputFormat');
      assert.equal(e.exitCode, 2);
      return true;
    });
    await assert.rejects(f.run('agy', 'x'), (e: Error & { field?: string }) => e.field === 'delegates.agy.promptVia');
    assert.equal((await f.records('claude')).length + (await f.records('agy')).length, 0);
  });

  it('publishes each backend settings format through sluice schema', async () => {
    const root = await tempProject();
    const r = await runSluice(['schema', '--cwd', root, '--json', 'delegate-claude-settings'], { cwd: root });
    assert.equal(r.code, 0, r.stderr);
    const { schema } = JSON.parse(r.stdout);
    assert.deepEqual(schema.properties.outputFormat.enum, ['stream-json', 'json']);
  });
});

describe('delegate runner', () => {
  it('refuses a working directory that does not exist, before starting anything', async () => {
    const f = await fakeSetup();
    await assert.rejects(
      f.run('claude', 'x', { cwd: join(f.root, 'gone') }),
      (e: Error & { code?: string; exitCode?: number }) => e.code === 'FILE_NOT_FOUND' && e.exitCode === 2,
    );
    assert.equal((await f.records('claude')).length, 0);
  });

  it('streams output to delegate:output observers as whole characters, split chunks or not', async () => {
    // Writes "é" (two bytes) one byte at a time, so naive per-chunk decoding would show U+FFFD.
    const script =
      "const b=Buffer.from('é and 🚀 ok');let i=0;const t=setInterval(()=>{process.stdout.write(b.subarray(i,i+1));if(++i>=b.length)clearInterval(t)},2)";
    const { kernel, ask } = await shellProject(script);
    let seen = '';
    kernel.hooks.on('delegate:output', 'test', (e) => void (seen += e.chunk));
    const r = await ask('x');
    assert.equal(r.text, 'é and 🚀 ok');
    assert.equal(seen, 'é and 🚀 ok');
  });
});

describe('interrupting sluice delegate', () => {
  it('Ctrl-C ends the run and no process of the CLI group survives sluice', async () => {
    const root = await tempProject();
    const recordDir = await mkdtemp(join(tmpdir(), 'sluice-fake-record-'));
    const child = spawnReaped(process.execPath, [sluiceEntry(), 'delegate', '--cwd', root, '--to', 'claude', '[[fake:ignore-term]]'], {
      cwd: repoRoot,
      env: { ...process.env, PATH: `${fakeBin}:${process.env.PATH}`, FAKE_CLI_RECORD: recordDir },
      stdio: 'ignore',
    });
    const exited = new Promise<number | null>((done) => child.on('exit', (code) => done(code)));
    const pids = await startedPids(recordDir, 'claude', 300);
    assert.ok(pids, 'the fake CLI started');
    child.kill('SIGINT');
    assert.notEqual(await exited, 0);
    assert.deepEqual(await waitGone([pids.child, pids.grandchild], 5000), []);
  });
});
