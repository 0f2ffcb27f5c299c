import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { cliBundle } from '../hardening/cli-bundle.ts';

const run = promisify(execFile);
let dir: string;

async function sluice(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [cliBundle(), '--cwd', dir, ...args], { env: { ...process.env, NO_COLOR: '1' } });
    return { code: 0, ...r };
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string };
    return { code: err.code, stdout: err.stdout, stderr: err.stderr };
  }
}

const settingsPath = () => join(dir, '.claude/settings.json');
const settings = () =>
  JSON.parse(readFileSync(settingsPath(), 'utf8')) as { hooks?: Record<string, { matcher?: string; hooks: { command: string }[] }[]>; [k: string]: unknown };

const userSettings = {
  permissions: { allow: ['Bash(npm test:*)'] },
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: './scripts/lint-command.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
  },
};

describe('sluice hooks install claude', () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-hooks-'));
    mkdirSync(join(dir, '.claude'));
    writeFileSync(settingsPath(), JSON.stringify(userSettings, null, 2));
    cliBundle();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it("adds the SessionStart handoff and the PreToolUse guard, keeping the user's settings", async () => {
    const r = await sluice('hooks', 'install', 'claude');
    assert.equal(r.code, 0, r.stderr);
    const s = settings();
    assert.deepEqual(s.permissions, userSettings.permissions);
    assert.deepEqual(s.hooks!.Stop, userSettings.hooks.Stop);
    const pre = s.hooks!.PreToolUse!;
    assert.equal(pre[0]!.hooks[0]!.command, './scripts/lint-command.sh', "the user's own PreToolUse hook stays first");
    assert.match(pre[1]!.hooks[0]!.command, /sluice guard$/);
    assert.match(pre[1]!.matcher!, /Write/);
    assert.match(s.hooks!.SessionStart![0]!.hooks[0]!.command, /sluice handoff --hook claude$/);
  });

  it('installing again changes nothing', async () => {
    const before = readFileSync(settingsPath(), 'utf8');
    const r = await sluice('hooks', 'install', 'claude');
    assert.equal(r.code, 0);
    assert.match(r.stdout, /nothing changed/);
    assert.equal(readFileSync(settingsPath(), 'utf8'), before);
  });

  it("--remove takes out only sluice's entries", async () => {
    const r = await sluice('hooks', 'install', 'claude', '--remove');
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(settings(), userSettings);
  });

  it('refuses settings that are not JSON, leaving them untouched', async () => {
    writeFileSync(settingsPath(), '{ "hooks": ');
    const r = await sluice('hooks', 'install', 'claude');
    assert.equal(r.code, 2);
    assert.match(r.stderr, /\.claude\/settings\.json/);
    assert.equal(readFileSync(settingsPath(), 'utf8'), '{ "hooks": ');
  });
});
