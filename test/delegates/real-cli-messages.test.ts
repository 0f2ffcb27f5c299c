import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { readFile } from 'node:fs/promises';
import { project, reapAfterTests, sluice, sluiceWithInput } from './real-cli-shapes.ts';

/** The CLI's own error in failure messages, and agy's timeout, error and version shapes (see real-cli-shapes.ts). */
reapAfterTests();

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

describe('agy specifics', () => {
  const agyProject = (env: Record<string, string> = {}) => project({}, { backend: 'agy', env });

  it('sets --print-timeout below sluice\u2019s clock and reads agy\u2019s "print timeout" warning as a timeout, not an answer', async () => {
    const { root, records } = await agyProject();
    const r = await sluice(root, ['delegate', '--to', 'agy', '--timeout', '60', '--json', '[[fake:partial-timeout]]']);
    assert.equal(r.code, 1, r.stderr);
    const out = JSON.parse(r.stdout);
    assert.equal(out.status, 'timeout');
    assert.match(out.error?.message, /--print-timeout expired mid-turn \(54s\); the answer is cut off/);
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
    assert.match(out.error?.message, /agy exited with code 3: rate limit: daily quota used up \(error id E-4711\)/);
  });

  it('reports exit 2 as a rejected flag, naming the installed version', async () => {
    const { root } = await agyProject({ FAKE_AGY_VERSION: '1.1.8' });
    const r = await sluice(root, ['delegate', '--to', 'agy', '[[fake:old-flags]]']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /agy 1\.1\.8 rejected a flag \(older than 1\.1\.12\? update agy\): flag provided but not defined: -print-timeout \(transcript/);
    assert.doesNotMatch(r.stderr, /--help|show this help|option-39/, 'the end of the usage listing is not the error');
  });

  it('names the actions agy refused headless: a turn they emptied fails, an answer without them carries a warning', async () => {
    const { root } = await agyProject();
    const emptied = await sluice(root, ['delegate', '--to', 'agy', '--json', '[[fake:denied-empty]]']);
    assert.equal(emptied.code, 1, emptied.stderr);
    const failed = JSON.parse(emptied.stdout) as { deniedActions: string[]; error: { message: string }; transcriptPath: string };
    assert.deepEqual(failed.deniedActions, ['command(rm -rf build)', 'read_file(~/.ssh/id_ed25519)']);
    assert.match(failed.error.message, /agy refused 2 actions: command\(rm -rf build\), read_file\(~\/\.ssh\/id_ed25519\), and answered nothing/);
    assert.match(await readFile(failed.transcriptPath, 'utf8'), /--- agy refused 2 action\(s\): command\(rm -rf build\), read_file/);
    const human = await sluice(root, ['delegate', '--to', 'agy', '[[fake:denied-empty]]']);
    assert.match(human.stderr, /DELEGATE_FAILED: agy run error: agy refused 2 actions: command\(rm -rf build\)/);

    const partial = await sluice(root, ['delegate', '--to', 'agy', '[[fake:denied-partial]]']);
    assert.equal(partial.code, 0, partial.stderr);
    assert.match(partial.stdout, /The tests were not run/);
    assert.match(partial.stderr, /warning agy: agy refused 1 action: command\(npm test\); the answer was written without them/);
    const partialJson = JSON.parse((await sluice(root, ['delegate', '--to', 'agy', '--json', '[[fake:denied-partial]]'])).stdout) as {
      status: string;
      deniedActions: string[];
      warnings: string[];
    };
    assert.deepEqual([partialJson.status, partialJson.deniedActions], ['ok', ['command(npm test)']]);
    assert.equal(partialJson.warnings.length, 1);
  });

  it('warns when a prompt is past the size agy is known to cut, and not below it', async () => {
    const { root, records } = await agyProject();
    const big = `${'context line of the repository under review\n'.repeat(4600)}Now answer: is the change safe?`;
    assert.ok(Buffer.byteLength(big) > 200_000);
    const r = await sluiceWithInput(root, ['delegate', '--to', 'agy', '--json', '-'], big);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /warning agy: the prompt is \d+ bytes; agy is known to drop what comes after about 190000 bytes/);
    const out = JSON.parse(r.stdout) as { warnings: string[]; transcriptPath: string };
    assert.equal(out.warnings.length, 1);
    assert.match(await readFile(out.transcriptPath, 'utf8'), /--- warning: the prompt is \d+ bytes/);
    const [rec] = await records();
    assert.equal(rec.stdin.length, Buffer.byteLength(big), 'the prompt still goes whole, on stdin');

    const small = await sluiceWithInput(root, ['delegate', '--to', 'agy', '-'], 'x'.repeat(150_000));
    assert.equal(small.code, 0, small.stderr);
    assert.doesNotMatch(small.stderr, /warning/);
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
      assert.doesNotMatch(rec.stdin.toString(), /^\s*\//, 'stdin starts like a slash command');
    }
    assert.ok(recs.some((rec) => rec.stdin.toString().endsWith('/help me write tests')));
  });
});
