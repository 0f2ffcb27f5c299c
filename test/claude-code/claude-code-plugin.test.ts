import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { accessSync, constants, existsSync, readdirSync, readFileSync } from 'node:fs';
import { chmod, cp, mkdir, mkdtemp, readdir, readFile, realpath, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parse } from 'yaml';
import { createKernel, type CommandDefinition } from '../../core/index.ts';
import { builtinPlugins } from '../../plugins/cli/builtin-plugins.ts';
import { GUARDED_TOOLS } from '../../plugins/guard/claude-settings.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';
import { runProcess, sluiceEntry } from '../helpers/run-cli.ts';

const root = resolve('.');
const pluginDir = join(root, 'plugins', 'claude-code');
const referenceCommands = resolve('../shared/reference/claude-code-sdlc/commands');
const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as { version: string };

/** The reference plugin's command names for the parts sluice implements: the plugin must have each. */
const REFERENCE_NAMES = ['sdlc', 'sdlc-setup', 'sdlc-status', 'sdlc-gate', 'sdlc-next', 'sdlc-audit', 'sdlc-phase-report', 'sdlc-spec'];

/**
 * The `claude` CLI (npm package @anthropic-ai/claude-code) when one is here: $SLUICE_CLAUDE_BIN, a
 * project install, or `claude` on PATH. It is a 400 MB native binary, so it is not a devDependency.
 */
function findClaude(): string | undefined {
  const candidates = [process.env.SLUICE_CLAUDE_BIN, join(root, 'node_modules', '.bin', 'claude'), 'claude'].filter((c): c is string => !!c);
  for (const c of candidates) {
    try {
      if (execFileSync(c, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 60_000 }).includes('Claude Code')) return c;
    } catch {}
  }
  return undefined;
}
const claude = findClaude();
const noClaude = claude ? false : 'the claude CLI (npm @anthropic-ai/claude-code) is not installed: set SLUICE_CLAUDE_BIN to run `claude plugin validate`';

/** A Claude Code that touches nothing outside the temporary home: no telemetry, no updates. */
const claudeEnv = (home: string) => ({
  ...process.env,
  HOME: home,
  XDG_CONFIG_HOME: join(home, '.config'),
  DISABLE_TELEMETRY: '1',
  DISABLE_AUTOUPDATER: '1',
  CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
});

/** `sluice WORDS …` lines of a markdown file's shell blocks, and the `Bash(sluice …:*)` permissions of its frontmatter. */
function sluiceLines(text: string): { lines: string[]; permissions: string[] } {
  const lines: string[] = [];
  for (const block of text.matchAll(/```(?:bash|sh)\n([\s\S]*?)```/g)) {
    for (const line of block[1].split('\n')) if (/^\s*sluice\s/.test(line)) lines.push(line.trim().replace(/\s+#.*$/, ''));
  }
  const front = /^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '';
  const permissions = [...front.matchAll(/Bash\((sluice[^):]*)(?::\*)?\)/g)].map((m) => m[1].trim());
  return { lines, permissions };
}

/** The words of a command line, quotes removed (enough for the plain lines the plugin's files hold). */
const words = (line: string) => (line.match(/"[^"]*"|\S+/g) ?? []).map((w) => w.replace(/^"|"$/g, ''));

const GLOBAL_OPTIONS = ['--json', '--cwd', '--concurrency', '--queue', '--no-color', '--help', '-h'];

/** What is wrong with one `sluice …` line: an unknown command, or an option that command does not take. */
function problemsOf(line: string, commands: readonly CommandDefinition[]): string[] {
  const argv = words(line).slice(1);
  const named = argv.filter((w) => !w.startsWith('-'));
  const def = [...commands]
    .sort((a, b) => b.name.split(' ').length - a.name.split(' ').length)
    .find((c) => c.name.split(' ').every((part, i) => named[i] === part));
  if (!def) return [`${line}: no sluice command ${JSON.stringify(named.slice(0, 2).join(' '))}`];
  const flags = (def.options ?? []).flatMap((o) => o.flags.split(/[ ,|]+/).filter((f) => f.startsWith('-')));
  return argv
    .filter((w) => w.startsWith('-'))
    .map((w) => w.split('=')[0])
    .filter((w) => !flags.includes(w) && !GLOBAL_OPTIONS.includes(w))
    .map((w) => `${line}: sluice ${def.name} has no option ${w}`);
}

describe('the Claude Code plugin (plugins/claude-code)', () => {
  let commands: CommandDefinition[];
  before(async () => {
    const kernel = await createKernel({ host: createNodeHost({ cwd: root }), plugins: builtinPlugins });
    commands = kernel.commands.entries().map((e) => e.value);
  });

  it('`claude plugin validate --strict` passes for the plugin and for the marketplace at the repository root', { skip: noClaude }, async () => {
    const home = await mkdtemp(join(tmpdir(), 'sluice-claude-home-'));
    for (const target of [pluginDir, root]) {
      const r = await runProcess(claude!, ['plugin', 'validate', '--strict', target], { env: claudeEnv(home), timeoutMs: 120_000 });
      assert.equal(r.code, 0, `${target}\n${r.stdout}\n${r.stderr}`);
      assert.match(r.stdout, /Validation passed/);
    }
    await rm(home, { recursive: true, force: true });
  });

  describe('installed into a Claude Code config layout', () => {
    let home: string;
    let installed: string;
    before(async () => {
      home = await mkdtemp(join(tmpdir(), 'sluice-claude-install-'));
      if (claude) {
        // The documented way: the repository as a marketplace, then the plugin from it.
        const env = claudeEnv(home);
        for (const args of [
          ['plugin', 'marketplace', 'add', root],
          ['plugin', 'install', 'sluice@sluice'],
        ]) {
          const r = await runProcess(claude, args, { env, timeoutMs: 120_000, cwd: home });
          assert.equal(r.code, 0, `claude ${args.join(' ')}\n${r.stdout}\n${r.stderr}`);
        }
        const list = await runProcess(claude, ['plugin', 'list', '--json'], { env, timeoutMs: 120_000, cwd: home });
        installed = (JSON.parse(list.stdout) as { id: string; installPath: string }[]).find((p) => p.id === 'sluice@sluice')!.installPath;
      } else {
        // Where Claude Code keeps an installed plugin: ~/.claude/plugins/cache/<marketplace>/<plugin>/<version>.
        installed = join(home, '.claude', 'plugins', 'cache', 'sluice', 'sluice', pkg.version);
        await mkdir(installed, { recursive: true });
        await cp(pluginDir, installed, { recursive: true });
      }
    });
    after(() => rm(home, { recursive: true, force: true }));

    it('has the reference plugin’s command names for every part sluice implements, plus lifecycle and tune commands', async () => {
      const names = (await readdir(join(installed, 'commands'))).map((f) => f.replace(/\.md$/, '')).sort();
      for (const name of REFERENCE_NAMES) assert.ok(names.includes(name), `/${name}`);
      if (existsSync(referenceCommands)) {
        const reference = readdirSync(referenceCommands).map((f) => f.replace(/\.md$/, ''));
        for (const name of names.filter((n) => n.startsWith('sdlc'))) assert.ok(reference.includes(name), `/${name} is a reference command name`);
      }
      assert.ok(names.some((n) => n.startsWith('lifecycle-')) && names.some((n) => n.startsWith('tune')), names.join(', '));
    });

    it('every command and skill runs sluice commands that exist, with options they take', async () => {
      const files = [
        ...(await readdir(join(installed, 'commands'))).map((f) => join(installed, 'commands', f)),
        ...(await readdir(join(installed, 'skills'))).map((d) => join(installed, 'skills', d, 'SKILL.md')),
      ];
      const problems: string[] = [];
      for (const file of files) {
        const text = await readFile(file, 'utf8');
        const front = parse(/^---\n([\s\S]*?)\n---\n/.exec(text)?.[1] ?? '') as { description?: string; name?: string } | null;
        if (!front?.description) problems.push(`${file}: no description in its frontmatter`);
        const { lines, permissions } = sluiceLines(text);
        if (lines.length === 0) problems.push(`${file}: runs no sluice command`);
        for (const line of [...lines, ...permissions]) problems.push(...problemsOf(line, commands));
        // Only sluice's answers: no file writes into sluice's records.
        if (/\.sdlc\/state\.yaml`? *(by hand|yourself)/.test(text) && !/never|do not|don't/i.test(text)) problems.push(`${file}: edits records`);
      }
      assert.deepEqual(problems, []);
    });

    it('the check above would catch a command that does not exist or an option it does not take', () => {
      assert.deepEqual(problemsOf('sluice gate --phase 2', commands), []);
      assert.equal(problemsOf('sluice gates', commands).length, 1);
      assert.equal(problemsOf('sluice lifecycle record SLUG plan --force', commands).length, 1);
    });

    it('hooks.json runs the SessionStart summary and the PreToolUse guard through the plugin’s launcher', async () => {
      const hooks = JSON.parse(await readFile(join(installed, 'hooks', 'hooks.json'), 'utf8')) as {
        hooks: Record<string, { matcher?: string; hooks: { type: string; command: string }[] }[]>;
      };
      const [start] = hooks.hooks.SessionStart;
      assert.equal(start.hooks[0].command, '"${CLAUDE_PLUGIN_ROOT}/bin/sluice" handoff --hook claude');
      const [guard] = hooks.hooks.PreToolUse;
      assert.equal(guard.matcher, GUARDED_TOOLS, 'the same tools `sluice hooks install claude` guards');
      assert.equal(guard.hooks[0].command, '"${CLAUDE_PLUGIN_ROOT}/bin/sluice" guard');
      accessSync(join(installed, 'bin', 'sluice'), constants.X_OK);
      const mcp = JSON.parse(await readFile(join(installed, '.mcp.json'), 'utf8')) as { mcpServers: { sluice: { command: string; args: string[] } } };
      assert.deepEqual(mcp.mcpServers.sluice, { command: '${CLAUDE_PLUGIN_ROOT}/bin/sluice', args: ['mcp'] });
    });
  });

  it('the marketplace entry points at the plugin folder, with the same name and the package’s version', async () => {
    const market = JSON.parse(await readFile('.claude-plugin/marketplace.json', 'utf8')) as { plugins: { name: string; source: string; version: string }[] };
    const manifest = JSON.parse(await readFile(join(pluginDir, '.claude-plugin', 'plugin.json'), 'utf8')) as { name: string; version: string };
    const [entry] = market.plugins;
    assert.equal(resolve(entry.source), pluginDir);
    assert.equal(entry.name, manifest.name);
    assert.equal(manifest.version, pkg.version);
    assert.equal(entry.version, pkg.version);
  });

  it('the lifecycle skills are the bundled stage prompts as they are now (node scripts/claude-plugin.mjs --write)', () => {
    const r = execFileSync(process.execPath, ['scripts/claude-plugin.mjs'], { encoding: 'utf8' });
    assert.equal(r, '');
  });
});

describe('the plugin’s launcher (bin/sluice)', () => {
  let dir: string;
  let bare: Record<string, string>;
  before(async () => {
    dir = await realpath(await mkdtemp(join(tmpdir(), 'sluice-launcher-')));
    // A PATH with the shell's tools and no sluice at all.
    bare = { PATH: '/usr/bin:/bin', HOME: dir };
  });
  after(() => rm(dir, { recursive: true, force: true }));
  const launcher = join(pluginDir, 'bin', 'sluice');

  it("runs the project's own sluice, found from a subfolder", async () => {
    const project = join(dir, 'project');
    await mkdir(join(project, 'node_modules', '.bin'), { recursive: true });
    await mkdir(join(project, 'src', 'deep'), { recursive: true });
    const bin = join(project, 'node_modules', '.bin', 'sluice');
    await writeFile(bin, `#!/bin/sh\nexec "${process.execPath}" "${sluiceEntry()}" "$@"\n`);
    await chmod(bin, 0o755);
    assert.equal((await runProcess(launcher, ['init', '--name', 'Launched'], { cwd: project, env: bare })).code, 0);
    const r = await runProcess(launcher, ['status', '--json'], { cwd: join(project, 'src', 'deep'), env: bare });
    assert.equal(r.code, 0, r.stderr);
    assert.equal((JSON.parse(r.stdout) as { project: string }).project, 'Launched');
  });

  it('without any sluice: the SessionStart hook says so (exit 0), the guard asks, anything else fails', async () => {
    const hook = await runProcess(launcher, ['handoff', '--hook', 'claude'], { cwd: dir, env: bare });
    assert.equal(hook.code, 0);
    assert.match(
      (JSON.parse(hook.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext,
      /sluice is not installed/,
    );
    const guard = await runProcess(launcher, ['guard'], { cwd: dir, env: bare, input: '{"tool_name":"Bash","tool_input":{"command":"ls"}}' });
    assert.equal(guard.code, 0);
    assert.equal((JSON.parse(guard.stdout) as { hookSpecificOutput: { permissionDecision: string } }).hookSpecificOutput.permissionDecision, 'ask');
    const status = await runProcess(launcher, ['status'], { cwd: dir, env: bare });
    assert.equal(status.code, 2);
    assert.match(status.stderr, /sluice is not installed/);
  });

  it('never runs itself when Claude Code puts its folder first on PATH', async () => {
    const r = await runProcess(launcher, ['status'], { cwd: dir, env: { ...bare, PATH: `${join(pluginDir, 'bin')}:/usr/bin:/bin` } });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /sluice is not installed/);
  });
});
