import assert from 'node:assert/strict';
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { after, before, describe, it } from 'node:test';
import { cliBundle } from '../hardening/cli-bundle.ts';

const run = promisify(execFile);
let dir: string;
/** sluice's user folders for these runs: a test home, never the user's. */
const home = mkdtempSync(join(tmpdir(), 'sluice-hooks-home-'));
const userEnv = { HOME: home, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), XDG_CACHE_HOME: join(home, 'cache') };

async function sluice(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const r = await run(process.execPath, [cliBundle(), '--cwd', dir, ...args], { env: { ...process.env, NO_COLOR: '1', SLUICE_CACHE_DIR: '', ...userEnv } });
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
    assert.deepEqual((s.permissions as { allow?: string[] }).allow, userSettings.permissions.allow);
    assert.deepEqual(s.hooks!.Stop, userSettings.hooks.Stop);
    const pre = s.hooks!.PreToolUse!;
    assert.equal(pre[0]!.hooks[0]!.command, './scripts/lint-command.sh', "the user's own PreToolUse hook stays first");
    assert.match(pre[1]!.hooks[0]!.command, /sluice\.cjs guard$/);
    assert.equal(pre[1]!.matcher, '*', 'every tool reaches the guard, MCP tools among them');
    assert.match(s.hooks!.SessionStart![0]!.hooks[0]!.command, /sluice\.cjs handoff --hook claude$/);
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

type Full = {
  hooks: Record<string, { matcher?: string; hooks: { command: string; timeout?: number }[] }[]>;
  sandbox?: { enabled?: boolean; allowUnsandboxedCommands?: boolean; filesystem?: { denyWrite?: string[]; denyRead?: string[] } };
  permissions?: { allow?: string[]; deny?: string[] };
  [k: string]: unknown;
};
const full = () => JSON.parse(readFileSync(settingsPath(), 'utf8')) as Full;

/** Runs a hook's command line as Claude Code does (through sh), the payload on stdin. */
function runHook(command: string, payload: unknown): { status: number | null; stdout: string } {
  const r = spawnSync('sh', ['-c', command], {
    input: JSON.stringify(payload),
    encoding: 'utf8',
    cwd: dir,
    env: { ...process.env, ...userEnv },
    timeout: 60_000,
  });
  return { status: r.status, stdout: r.stdout };
}

describe("sluice hooks install claude: Claude Code's sandbox and permission rules, and an absolute, checked hook command", () => {
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'sluice-hooks-sandbox-'));
    mkdirSync(join(dir, '.sdlc', 'artifacts'), { recursive: true });
    writeFileSync(join(dir, '.sdlc', 'state.yaml'), 'x: 1\n');
    mkdirSync(join(dir, '.claude'));
    cliBundle();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('the hooks run this node and this sluice by absolute path, with a timeout, and the guard answers through them', async () => {
    const r = await sluice('hooks', 'install', 'claude', '--json');
    assert.equal(r.code, 0, r.stderr);
    const s = full();
    const guard = s.hooks.PreToolUse!.at(-1)!.hooks[0]!;
    const bin = realpathSync(join(cliBundle(), '..', '..', 'bin', 'sluice.cjs'));
    assert.equal(guard.command, `${process.execPath} ${bin} guard`, 'no bare `sluice` from PATH');
    assert.equal(typeof guard.timeout, 'number');
    assert.ok(s.hooks.SessionStart![0]!.hooks[0]!.timeout! > 0);
    assert.equal(JSON.parse(r.stdout).command, `${process.execPath} ${bin}`);
    const answer = runHook(guard.command, {
      hook_event_name: 'PreToolUse',
      tool_name: 'Edit',
      cwd: dir,
      tool_input: { file_path: join(dir, '.sdlc', 'state.yaml'), old_string: 'x', new_string: 'y' },
    });
    assert.equal(answer.status, 0);
    assert.equal(JSON.parse(answer.stdout).hookSpecificOutput.permissionDecision, 'deny');
  });

  it("writes the sandbox (enabled, no unsandboxed fallback) and permission rules for the records and sluice's folders", () => {
    const s = full();
    assert.equal(s.sandbox?.enabled, true);
    assert.equal(s.sandbox?.allowUnsandboxedCommands, false);
    const denyWrite = s.sandbox?.filesystem?.denyWrite ?? [];
    const at = (p: string) => `/${join(dir, p)}`;
    for (const p of [
      '.sdlc/state.yaml',
      '.sdlc/journal.jsonl',
      '.sdlc/profile.yaml',
      '.prizmkit/state',
      '.sluice',
      'sluice.config.yaml',
      '.git/config',
      '.git/hooks',
    ])
      assert.ok(denyWrite.includes(at(p)), `${p} is read-only in the sandbox`);
    assert.ok(!denyWrite.some((p) => p.includes('.sdlc/artifacts') || p.includes('.sdlc/reports')), "the agent's artifacts stay writable");
    const config = `/${join(home, 'config', 'sluice')}`;
    assert.ok(denyWrite.includes(config));
    assert.ok(denyWrite.includes(`/${realpathSync(join(cliBundle(), '..', '..'))}`), "sluice's installation is read-only");
    assert.deepEqual(
      (s.sandbox?.filesystem?.denyRead ?? []).filter((p) => p.startsWith(`/${home}`)).sort(),
      [config, `/${join(home, 'state', 'sluice')}`, `/${join(home, 'cache', 'sluice')}`].sort(),
      'keys, anchors, the trust store and the cache are not readable',
    );
    const deny = s.permissions?.deny ?? [];
    for (const rule of [`Edit(${at('.sdlc/state.yaml')})`, `Edit(${at('.git/hooks')}/**)`, `Edit(${config}/**)`, `Read(${config}/**)`])
      assert.ok(deny.includes(rule), `${rule} is a deny rule`);
    assert.ok(!deny.some((r) => r.startsWith('Write(')), 'Claude Code matches Edit(...) rules for every file-editing tool, never Write(...)');
  });

  it("merges with the user's own sandbox and permission settings, twice without change, and --remove restores them", async () => {
    const user = {
      model: 'opus',
      sandbox: { enabled: false, filesystem: { denyWrite: ['//etc'] }, network: { allowedDomains: ['github.com'] } },
      permissions: { allow: ['Bash(npm test:*)'], deny: ['Read(./.env)'] },
    };
    writeFileSync(settingsPath(), JSON.stringify(user, null, 2));
    rmSync(join(dir, '.sluice'), { recursive: true, force: true });
    assert.equal((await sluice('hooks', 'install', 'claude')).code, 0);
    const once = readFileSync(settingsPath(), 'utf8');
    const s = full();
    assert.equal(s.sandbox?.enabled, true);
    assert.deepEqual(s.sandbox?.filesystem?.denyWrite?.[0], '//etc', "the user's entries stay first");
    assert.deepEqual((s.sandbox as { network?: unknown }).network, user.sandbox.network);
    assert.equal(s.permissions?.deny?.[0], 'Read(./.env)');
    assert.equal(s.model, 'opus');
    const again = await sluice('hooks', 'install', 'claude');
    assert.match(again.stdout, /nothing changed/);
    assert.equal(readFileSync(settingsPath(), 'utf8'), once, 'installing twice changes nothing');
    assert.ok(existsSync(join(dir, '.sluice', 'claude-settings.json')), 'what sluice added is recorded');
    assert.equal((await sluice('hooks', 'install', 'claude', '--remove')).code, 0);
    assert.deepEqual(JSON.parse(readFileSync(settingsPath(), 'utf8')), user, 'only what sluice added is taken out; sandbox.enabled is false again');
  });

  it('a hook command that does not answer as the guard fails the install and leaves the settings as they were', async () => {
    const before = readFileSync(settingsPath(), 'utf8');
    for (const command of ['/bin/true', 'sh -c "exit 3"', join(dir, 'no-such-sluice')]) {
      const r = await sluice('hooks', 'install', 'claude', '--command', command);
      assert.equal(r.code, 2, `${command}: ${r.stderr}`);
      assert.match(r.stderr, /CLAUDE_HOOK_UNUSABLE: field --command: the hook command .* does not work as sluice's guard/);
      assert.equal(readFileSync(settingsPath(), 'utf8'), before);
    }
  });

  const claudeBin = process.env.SLUICE_TEST_CLAUDE ?? 'claude';
  const claudeMissing =
    spawnSync(claudeBin, ['--version'], { encoding: 'utf8' }).status === 0
      ? false
      : `no Claude Code CLI (${claudeBin}) to validate the settings with; set SLUICE_TEST_CLAUDE`;
  it('Claude Code itself reads the settings without complaint (claude doctor)', { skip: claudeMissing }, async () => {
    assert.equal((await sluice('hooks', 'install', 'claude')).code, 0);
    const doctor = spawnSync(claudeBin, ['doctor'], { cwd: dir, encoding: 'utf8', env: { ...process.env, HOME: home }, input: '', timeout: 120_000 });
    const text = doctor.stdout + doctor.stderr;
    assert.doesNotMatch(text, /Invalid settings|may not work as written/, text);
  });
});
