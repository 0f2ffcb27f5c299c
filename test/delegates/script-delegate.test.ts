import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { mkdir, readFile, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { DelegateRequest, RunOptions } from '../../core/index.ts';
import { sequenceDir } from '../../delegates/script/script-sequence.ts';
import { delegateKernel, sluiceDelegate, tempProject, writeScript } from './delegate-kernel.ts';
import { delegateRequest } from '../helpers/delegate-request.ts';

const REVIEW_SCRIPT = `version: 1
rules:
  - match: "Review the (\\\\S+) change"
    flags: "is"
    mode: analysis
    replies:
      - text: "first review of $1"
        json: { ok: true, slug: "$1" }
      - "second review of $1"
      - "last review of $1"
  - match: "Plan (?<slug>[\\\\w./-]+)"
    mode: write
    reply:
      text: "planned $<slug>"
      files:
        ".prizmkit/specs/$<slug>/plan.md": "- [x] [T-001] plan for $<slug>\\n"
  - match: "Plan"
    reply: "read-only plan"
  - match: "slow"
    reply: { text: "finally", delayMs: 3600000 }
  - match: "flaky"
    reply: { status: error, error: "rate limited", transient: true }
  - match: "(broken)"
    reply: { status: error, error: "tool crashed on $1", exitCode: 7 }
  - match: "never answers"
    reply: { status: timeout }
  - match: "cost \\\\$\\\\d+"
    reply: "price: $$5"
`;

const req = (root: string, prompt: string, extra: Partial<DelegateRequest> = {}) =>
  delegateRequest(root, prompt, { extra: { script: 'script.yaml' }, ...extra });

async function project(yaml = REVIEW_SCRIPT) {
  const root = await tempProject();
  await writeScript(root, 'script.yaml', yaml);
  return root;
}

/** A project holding script.yaml (`yaml`), a kernel on it (`config`, `concurrency`), and `ask`: one script run there. */
async function scripted(yaml = REVIEW_SCRIPT, config: Record<string, unknown> = {}, concurrency?: number) {
  const root = await project(yaml);
  const kernel = await delegateKernel(root, config, concurrency);
  const ask = (prompt: string, extra: Partial<DelegateRequest> = {}, options?: RunOptions) => kernel.runDelegate('script', req(root, prompt, extra), options);
  return { root, kernel, ask };
}

describe('script delegate: matching', () => {
  it('answers with the first matching rule, substituting numbered and named captures', async () => {
    const { ask } = await scripted();
    const a = await ask('Please REVIEW the login-form change now');
    assert.equal(a.status, 'ok');
    assert.equal(a.exitCode, 0);
    assert.equal(a.text, 'first review of login-form');
    assert.deepEqual(a.json, { ok: true, slug: 'login-form' });
    assert.equal(a.tries, 1);
    const b = await ask('Plan auth', { mode: 'write' });
    assert.equal(b.text, 'planned auth');
  });

  it('skips rules whose mode differs from the run mode', async () => {
    const { ask } = await scripted();
    assert.equal((await ask('Plan auth', { mode: 'analysis' })).text, 'read-only plan');
    const review = await ask('Review the x change', { mode: 'write' });
    assert.equal(review.status, 'error');
    assert.equal(review.error, 'no scripted answer for this prompt');
  });

  it('uses the default reply when no rule matches, and fails without one', async () => {
    const a = await (await scripted(`version: 1\nrules: []\ndefault: "nothing scripted for that"\n`)).ask('anything');
    assert.deepEqual([a.status, a.text], ['ok', 'nothing scripted for that']);
    const b = await (await scripted(`version: 1\nrules:\n  - match: "^exact$"\n    reply: yes\n`)).ask('not exact');
    assert.equal(b.status, 'error');
    assert.equal(b.exitCode, 1);
    assert.equal(b.error, 'no scripted answer for this prompt');
  });

  it('keeps $$ as a literal dollar sign', async () => {
    const a = await (await scripted()).ask('what is the cost $12?');
    assert.equal(a.text, 'price: $5');
  });

  it('writes the answer to the transcript and to delegate:output observers', async () => {
    const { kernel, ask } = await scripted();
    const chunks: string[] = [];
    kernel.hooks.on('delegate:output', 'test', (e) => void chunks.push(e.chunk));
    const a = await ask('Review the api change');
    const transcript = await readFile(a.transcriptPath, 'utf8');
    assert.match(transcript, /first review of api/);
    assert.match(transcript, /rules\[0\] reply 1\/3/);
    assert.ok(chunks.join('').includes('first review of api'));
  });
});

describe('script delegate: sequences', () => {
  it('hands out replies one per call, the last repeating, and continues across kernels (processes)', async () => {
    const root = await project();
    const texts: string[] = [];
    for (let i = 0; i < 2; i++) texts.push((await (await delegateKernel(root)).runDelegate('script', req(root, 'review the web change'))).text);
    const k = await delegateKernel(root);
    for (let i = 0; i < 3; i++) texts.push((await k.runDelegate('script', req(root, 'review the web change'))).text);
    assert.deepEqual(texts, ['first review of web', 'second review of web', 'last review of web', 'last review of web', 'last review of web']);
    const stateFiles = await import('node:fs/promises').then((fs) => fs.readdir(sequenceDir(root)));
    assert.equal(stateFiles.length, 1);
    assert.match(stateFiles[0], /^script\.yaml\.[0-9a-f]{10}\.json$/);
  });

  it('gives parallel calls distinct replies', async () => {
    const { ask } = await scripted(REVIEW_SCRIPT, {}, 4);
    const results = await Promise.all([1, 2, 3].map(() => ask('review the p change')));
    assert.deepEqual(results.map((r) => r.text).sort(), ['first review of p', 'last review of p', 'second review of p']);
  });

  it('restarts every sequence after `sluice delegate --to script --reset`', async () => {
    const { root, ask } = await scripted();
    await ask('review the a change');
    const reset = await sluiceDelegate(root, ['--to', 'script', '--reset']);
    assert.equal(reset.code, 0, reset.stderr);
    assert.equal(existsSync(sequenceDir(root)), false);
    assert.equal((await ask('review the a change')).text, 'first review of a');
  });
});

describe('script delegate: files', () => {
  it('writes reply files inside the run directory in write mode', async () => {
    const { root, ask } = await scripted();
    const a = await ask('Plan auth', { mode: 'write' });
    assert.equal(a.status, 'ok');
    assert.equal(await readFile(join(root, '.prizmkit/specs/auth/plan.md'), 'utf8'), '- [x] [T-001] plan for auth\n');
    assert.match(await readFile(a.transcriptPath, 'utf8'), /wrote \.prizmkit\/specs\/auth\/plan\.md/);
  });

  it('never writes files in analysis mode', async () => {
    const { root, ask } = await scripted(`version: 1\nrules:\n  - match: "Plan (\\\\w+)"\n    reply: { text: "ok", files: { "out/$1.md": "x" } }\n`);
    const a = await ask('Plan auth');
    assert.equal(a.status, 'ok');
    assert.equal(existsSync(join(root, 'out')), false);
  });

  it('refuses a path that escapes the run directory through a capture, writing nothing', async () => {
    const { root, ask } = await scripted();
    const outside = join(root, '..');
    const a = await ask('Plan ../../../escaped', { mode: 'write' });
    assert.equal(a.status, 'error');
    assert.match(a.error!, /outside the working directory/);
    assert.equal(existsSync(join(outside, 'escaped')), false);
    assert.equal(existsSync(join(tmpdir(), 'escaped')), false);
  });

  it('refuses a path that leaves the run directory through a symlink', async () => {
    const { root, ask } = await scripted();
    const elsewhere = await tempProject();
    await mkdir(join(root, '.prizmkit'), { recursive: true });
    await symlink(elsewhere, join(root, '.prizmkit/specs'));
    const a = await ask('Plan auth', { mode: 'write' });
    assert.equal(a.status, 'error');
    assert.match(a.error!, /symlink/);
    assert.equal(existsSync(join(elsewhere, 'auth')), false);
  });
});

describe('script delegate: outcomes, time and cancellation', () => {
  // The delay is an hour: waiting it out would exceed the test's time limit, no stopwatch needed.
  it('reports a simulated delay that outlives the timeout as status timeout, without waiting it out', async () => {
    const a = await (await scripted()).ask('slow please', { timeoutMs: 100 });
    assert.equal(a.status, 'timeout');
  });

  it('stops a simulated delay when the AbortSignal fires', async () => {
    const { kernel, ask } = await scripted();
    const controller = new AbortController();
    // Once the run has started, however long that takes on a loaded machine.
    kernel.hooks.on('delegate:start', 'test', () => void controller.abort());
    // A started run answers cancellation itself: the result says `cancelled`, it does not throw.
    const finished = new Promise<string>((done) => kernel.hooks.on('delegate:finish', 'test', (e) => void done(e.status)));
    const r = await ask('slow please', {}, { signal: controller.signal });
    assert.equal(r.status, 'cancelled');
    assert.equal(await finished, 'cancelled');
  });

  it('reports scripted timeouts and errors with their exit code and message', async () => {
    const { ask } = await scripted();
    const t = await ask('it never answers');
    assert.deepEqual([t.status, t.exitCode], ['timeout', null]);
    const e = await ask('broken');
    assert.deepEqual([e.status, e.exitCode, e.error, e.tries], ['error', 7, 'tool crashed on broken', 1]);
  });

  it('retries transient errors with backoff and reports the tries', async () => {
    const a = await (await scripted(REVIEW_SCRIPT, { delegates: { script: { retries: 2 } } })).ask('flaky');
    assert.deepEqual([a.status, a.tries, a.error], ['error', 3, 'rate limited']);
  });
});

describe('script delegate: script files', () => {
  it('names the file and field of an invalid script (SCRIPT_INVALID, exit 2)', async () => {
    for (const [yaml, field] of [
      ['version: 1\nrules:\n  - match: "("\n    reply: x\n', 'rules.0.match'],
      ['version: 1\nrules:\n  - match: "a"\n    repy: x\n', 'rules.0.repy'],
      ['version: 2\n', 'version'],
    ] as const) {
      const { ask } = await scripted(yaml);
      await assert.rejects(ask('a'), (e: Error & { code?: string; field?: string; file?: string; exitCode?: number }) => {
        assert.equal(e.code, 'SCRIPT_INVALID');
        assert.equal(e.exitCode, 2);
        assert.equal(e.file, 'script.yaml');
        assert.equal(e.field, field);
        return true;
      });
    }
  });

  it('takes the script from extra.script, then delegates.script.file, then SLUICE_DELEGATE_SCRIPT', async () => {
    const root = await tempProject();
    await writeScript(root, 'a.yaml', 'version: 1\ndefault: from-extra\n');
    await writeScript(root, 'b.yaml', 'version: 1\ndefault: from-config\n');
    await writeScript(root, 'c.yaml', 'version: 1\ndefault: from-env\n');
    const configured = await delegateKernel(root, { delegates: { script: { file: 'b.yaml' } } });
    const plain = await delegateKernel(root);
    const r = { prompt: 'x', mode: 'analysis' as const, cwd: root };
    process.env.SLUICE_DELEGATE_SCRIPT = join(root, 'c.yaml');
    try {
      assert.equal((await configured.runDelegate('script', { ...r, extra: { script: 'a.yaml' } })).text, 'from-extra');
      assert.equal((await configured.runDelegate('script', r)).text, 'from-config');
      assert.equal((await plain.runDelegate('script', r)).text, 'from-env');
    } finally {
      delete process.env.SLUICE_DELEGATE_SCRIPT;
    }
    await assert.rejects(plain.runDelegate('script', r), /no script file/);
  });

  it('reports a configured script that does not exist as unavailable (exit 2)', async () => {
    const root = await tempProject();
    const k = await delegateKernel(root, { delegates: { script: { file: 'missing.yaml' } } });
    await assert.rejects(
      k.runDelegate('script', { prompt: 'x', mode: 'analysis', cwd: root }),
      (e: Error & { code?: string }) => e.code === 'DELEGATE_UNAVAILABLE',
    );
  });
});

describe('sluice delegate --to script', () => {
  it('prints the text, exits 0; reads the prompt from stdin with -; prints the full result with --json', async () => {
    const root = await project();
    const human = await sluiceDelegate(root, ['--to', 'script', '--script', 'script.yaml', 'review the cli change']);
    assert.equal(human.code, 0, human.stderr);
    assert.equal(human.stdout, 'first review of cli\n');
    const piped = await sluiceDelegate(root, ['--to', 'script', '--script', 'script.yaml', '--json', '-'], {
      input: 'Please,\nReview the stdin change\n',
    });
    assert.equal(piped.code, 0, piped.stderr);
    const doc = JSON.parse(piped.stdout);
    assert.equal(doc.text, 'second review of stdin');
    assert.equal(doc.status, 'ok');
    assert.equal(doc.tries, 1);
  });

  it('exits 1 with DELEGATE_FAILED for a failed run and 2 for an unknown backend', async () => {
    const root = await project();
    const failed = await sluiceDelegate(root, ['--to', 'script', '--script', 'script.yaml', '--json', 'broken']);
    assert.equal(failed.code, 1);
    assert.equal(JSON.parse(failed.stdout).error.code, 'DELEGATE_FAILED');
    const unknown = await sluiceDelegate(root, ['--to', 'gpt-9', 'hello']);
    assert.equal(unknown.code, 2);
    assert.match(unknown.stderr, /DELEGATE_UNKNOWN.*gpt-9/);
  });
});
