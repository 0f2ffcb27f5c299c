import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { cliBundle } from '../hardening/cli-bundle.ts';
import { repoRoot } from '../hardening/repo-files.ts';
import { runProcess } from '../helpers/run-cli.ts';

interface Recorded {
  name: string;
  expect: 'allow' | 'ask' | 'deny';
  payload: Record<string, unknown>;
}

interface GuardRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

let base: string;
let project: string;
let config: string;
/** HOME for the guard: its `~/.config/sluice` is sluice's too while XDG_CONFIG_HOME points elsewhere. */
let home: string;

function runGuard(input: string, cwd: string, bin = cliBundle(), env: Record<string, string> = {}): Promise<GuardRun> {
  return runProcess(process.execPath, [bin, 'guard'], {
    cwd,
    env: { ...process.env, HOME: home, CLAUDE_PROJECT_DIR: project, XDG_CONFIG_HOME: config, XDG_CACHE_HOME: join(base, 'cache'), ...env },
    input,
  });
}

/** The decision as Claude Code reads it: no output is no objection. */
function verdictOf(run: GuardRun): { verdict: string; reason?: string } {
  assert.equal(run.code, 0, `the guard exits 0 (stderr: ${run.stderr})`);
  if (run.stdout.trim() === '') return { verdict: 'allow' };
  const out = JSON.parse(run.stdout) as { hookSpecificOutput: { hookEventName: string; permissionDecision: string; permissionDecisionReason: string } };
  assert.equal(out.hookSpecificOutput.hookEventName, 'PreToolUse');
  assert.ok(out.hookSpecificOutput.permissionDecisionReason.length > 0, 'a decision carries a reason');
  return { verdict: out.hookSpecificOutput.permissionDecision, reason: out.hookSpecificOutput.permissionDecisionReason };
}

const recorded: Recorded[] = readFileSync(join(repoRoot, 'test/fixtures/guard/recorded-payloads.jsonl'), 'utf8')
  .split('\n')
  .filter(Boolean)
  .map((l) => JSON.parse(l) as Recorded);

describe('sluice guard answers recorded PreToolUse payloads (built CLI)', () => {
  before(() => {
    base = mkdtempSync(join(tmpdir(), 'sluice-guard-'));
    project = join(base, 'app');
    config = join(base, 'config');
    home = join(base, 'home');
    for (const d of ['.sdlc/artifacts/build', '.prizmkit/state/journal', '.sluice/runs', 'src', 'notes', '.git/hooks', 'node_modules/sluice/dist'])
      mkdirSync(join(project, d), { recursive: true });
    mkdirSync(join(config, 'sluice'), { recursive: true });
    for (const d of ['.config/sluice', '.local/bin']) mkdirSync(join(home, d), { recursive: true });
    writeFileSync(join(home, '.config/sluice/commit-grant.key'), 'k\n');
    writeFileSync(join(project, '.sdlc/state.yaml'), "current_phase: '1'\n");
    writeFileSync(join(project, 'sluice.config.yaml'), 'plugins: []\n');
    writeFileSync(join(project, 'src/app.ts'), 'export {}\n');
    writeFileSync(join(config, 'sluice/commit-grant.key'), 'k\n');
    symlinkSync('.sdlc/state.yaml', join(project, 'notes.md'));
    cliBundle();
  });
  after(() => rmSync(base, { recursive: true, force: true }));

  for (const c of recorded) {
    it(`${c.expect}: ${c.name}`, async () => {
      const text = JSON.stringify(c.payload).replaceAll('__PROJECT__', project).replaceAll('__CONFIG__', config).replaceAll('__HOME__', home);
      const cwd = (JSON.parse(text) as { cwd: string }).cwd;
      const got = verdictOf(await runGuard(text, project));
      assert.equal(got.verdict, c.expect, `${c.name} (${cwd}): ${got.reason ?? 'no objection'}`);
    });
  }

  it('answers ask, not silence, when the payload is not JSON', async () => {
    assert.equal(verdictOf(await runGuard('{not json', project)).verdict, 'ask');
  });

  it('the installed command (bin/sluice.cjs) answers the same through its shortcut', async () => {
    const payload = JSON.stringify({
      hook_event_name: 'PreToolUse',
      tool_name: 'Bash',
      cwd: project,
      tool_input: { command: 'cd .sdlc && sed -i s/1/9/ state.yaml' },
    });
    const got = verdictOf(await runGuard(payload, project, join(repoRoot, 'bin/sluice.cjs')));
    assert.equal(got.verdict, 'deny');
    assert.match(got.reason!, /state\.yaml is an SDLC record/);
  });

  it('a message file written by Write, then `git commit -F` it: the commit is denied, the file never quoted', async () => {
    const msg = join(project, 'notes', 'msg.txt');
    const body = 'feat: login\n\nsecret-7781\nLifecycle-Requirement: add-login\n';
    const call = (tool: string, input: Record<string, unknown>) =>
      JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: tool, cwd: project, tool_input: input });
    assert.equal(verdictOf(await runGuard(call('Write', { file_path: msg, content: body }), project)).verdict, 'allow');
    writeFileSync(msg, body); // what Claude Code does once the guard has no objection
    for (const command of ['git commit -F notes/msg.txt', 'git add -A && git commit --file=notes/msg.txt', 'cd notes && git commit -aF msg.txt']) {
      const got = verdictOf(await runGuard(call('Bash', { command }), project));
      assert.equal(got.verdict, 'deny', command);
      assert.match(got.reason!, /notes\/msg\.txt|msg\.txt carries the Lifecycle-Requirement trailer/);
      assert.ok(!got.reason!.includes('secret-7781'), `the reason quotes the file: ${got.reason}`);
    }
    // An Edit that adds the trailer to a clean message: the next commit from it is denied too.
    const clean = join(project, 'notes', 'clean.txt');
    writeFileSync(clean, 'fix: typo\n');
    assert.equal(verdictOf(await runGuard(call('Bash', { command: 'git commit -F notes/clean.txt' }), project)).verdict, 'allow');
    assert.equal(verdictOf(await runGuard(call('Edit', { file_path: clean, old_string: 'typo', new_string: 'x' }), project)).verdict, 'allow');
    writeFileSync(clean, 'fix: typo\n\nLifecycle-Requirement: r\n');
    assert.equal(verdictOf(await runGuard(call('Bash', { command: 'git commit -F notes/clean.txt' }), project)).verdict, 'deny');
    assert.equal(verdictOf(await runGuard(call('Bash', { command: 'git commit --amend --no-edit' }), project)).verdict, 'ask');
    assert.equal(
      verdictOf(await runGuard(call('Write', { file_path: join(project, '.git/hooks/prepare-commit-msg'), content: '#!/bin/sh\n' }), project)).verdict,
      'deny',
    );
  });

  it("sluice's cache folder, which gate reads in place of the records: writes denied, reads allowed", async () => {
    const call = (tool: string, input: Record<string, unknown>) =>
      JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: tool, cwd: project, tool_input: input });
    const entry = join(base, 'cache', 'sluice', 'parsed', '0123456789abcdef.json');
    const cases: [string, string, Record<string, string>?][] = [
      [call('Write', { file_path: entry, content: '{}' }), 'deny'],
      [call('Bash', { command: `echo '{}' > ${entry}` }), 'deny'],
      [call('Bash', { command: 'cp forged.json ~/.cache/sluice/parsed/' }), 'deny', { XDG_CACHE_HOME: '', HOME: base }],
      // Removing a folder that holds it is asked about, as for the records' own folders.
      [call('Bash', { command: `rm -rf ${join(base, 'cache')}` }), 'ask'],
      [call('Read', { file_path: entry }), 'allow'],
      [call('Bash', { command: `cat ${entry}` }), 'allow'],
      // SLUICE_CACHE_DIR moves it, to a path that need not say "sluice".
      [call('Bash', { command: 'cp forged.json /srv/c1/parsed/x.json' }), 'deny', { SLUICE_CACHE_DIR: '/srv/c1' }],
      [call('Bash', { command: 'cp forged.json /srv/c1/parsed/x.json' }), 'allow'],
      [call('Bash', { command: 'cp notes.txt /srv/c1/notes.txt' }), 'allow', { SLUICE_CACHE_DIR: '/srv/c1' }],
    ];
    for (const [payload, expected, env] of cases) {
      const got = verdictOf(await runGuard(payload, project, cliBundle(), env));
      assert.equal(got.verdict, expected, `${payload} ${JSON.stringify(env ?? {})}: ${got.reason ?? 'no objection'}`);
      if (expected === 'deny') assert.match(got.reason!, /sluice's cache/);
    }
  });

  it('a command past the 32 KiB bound is asked about without being read; one just under it is read and judged', async () => {
    const call = (command: string) => JSON.stringify({ hook_event_name: 'PreToolUse', tool_name: 'Bash', cwd: project, tool_input: { command } });
    const fill = (unit: string, size: number) => unit.repeat(Math.ceil(size / unit.length)).slice(0, size);
    for (const size of [150 * 1024, 1024 * 1024]) {
      const got = verdictOf(await runGuard(call(fill('echo hello world $X > out.txt; ', size)), project));
      assert.equal(got.verdict, 'ask', `${size} characters`);
      assert.match(got.reason!, /more than the 32768 sluice's guard reads/);
    }
    // Under the bound the parser reads it all (a quadratic tokenizer took minutes here): the last command still counts.
    const near = `${fill('echo hello world $X > out.txt; ', 30 * 1024)}\nrm -rf .sdlc`;
    assert.equal(verdictOf(await runGuard(call(near), project)).verdict, 'deny');
    assert.equal(verdictOf(await runGuard(call(fill('echo hello world $X > out.txt; ', 30 * 1024)), project)).verdict, 'allow');
  });

  it('says nothing for other hook events', async () => {
    const run = await runGuard(
      JSON.stringify({ hook_event_name: 'PostToolUse', tool_name: 'Write', tool_input: { file_path: join(project, '.sdlc/state.yaml') } }),
      project,
    );
    assert.equal(verdictOf(run).verdict, 'allow');
  });
});
