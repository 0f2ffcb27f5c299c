import assert from 'node:assert/strict';
import { chmod, mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { reapAll, spawnReaped } from '../helpers/reap-children.ts';
import { redisServerMissing, startRedisServer } from '../helpers/redis-server.ts';
import { tempDir } from '../sdlc/sdlc-fixture.ts';
import { sluiceBundle } from '../sdlc/sluice-cli.ts';
import { FAKE_CLIS, RECIPES, runShell, scriptAvailable, useRedis, type Sandbox } from './help-example-sandboxes.ts';

/**
 * Every example printed by every command's --help is run as a user would paste it (through `sh -c`,
 * pipes and redirections included, with `sluice` and fake `claude`/`agy`/`codex` on PATH) in a
 * sandbox prepared for it (help-example-sandboxes.ts), and must do its job there: the exit code and
 * output its recipe names. An example that asks a person runs on a pseudo-terminal with the answer typed.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const USAGE_ERRORS = /\b(USAGE|UNKNOWN_COMMAND|PHASE_UNKNOWN)\b/;

let bin: string;
const dirs: string[] = [];
const stopRedis: (() => unknown)[] = [];

const shellQuote = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** `Commands:` of a help text: the first word of each entry (help itself left out). */
function commandNames(help: string): string[] {
  const section = help.split(/^Commands:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}([a-z][a-z-]*)\b/gm)].map((m) => m[1]).filter((n) => n !== 'help');
}

/** The `$ ...` lines under `Examples:`, with a trailing `# comment` removed. */
function examplesOf(help: string): string[] {
  const section = help.split(/^Examples:$/m)[1] ?? '';
  return [...section.matchAll(/^ {2}\$ (.+)$/gm)].map((m) => m[1].replace(/\s+#\s.*$/, '').trim());
}

/** The environment of one sandbox: its own HOME, config and temp folders outside the project. */
async function sandbox(example: string): Promise<Sandbox> {
  const parent = await tempDir('sluice-example-');
  dirs.push(parent);
  const dir = join(parent, 'project');
  for (const d of [dir, join(parent, 'home'), join(parent, 'tmp')]) await mkdir(d, { recursive: true });
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    PATH: `${bin}:${FAKE_CLIS}:${process.env.PATH}`,
    HOME: join(parent, 'home'),
    XDG_CONFIG_HOME: join(parent, 'home', '.config'),
    TMPDIR: join(parent, 'tmp'),
    NO_COLOR: '1',
    SLUICE_USER: 'example-user',
  };
  for (const name of [
    'SLUICE_TRUSTED_HASH',
    'SLUICE_SIGNING_KEY',
    'SLUICE_QUEUE_KEY_FILE',
    'SLUICE_QUEUE_URL',
    'FAKE_CLI_BEHAVIOUR',
    'GIT_DIR',
    'GIT_WORK_TREE',
  ])
    delete env[name];
  return { dir, env, example };
}

/** Every command path (`next`, `lifecycle start`) and the examples its --help prints. */
async function allExamples(): Promise<{ command: string; example: string }[]> {
  const out: { command: string; example: string }[] = [];
  const { env } = await sandbox('sluice --help');
  const queue = commandNames((await runShell('sluice --help', root, env)).stdout).map((n) => [n]);
  while (queue.length) {
    const path = queue.shift()!;
    const help = (await runShell(`sluice ${path.join(' ')} --help`, root, env)).stdout;
    for (const example of examplesOf(help)) out.push({ command: path.join(' '), example });
    for (const sub of commandNames(help)) queue.push([...path, sub]);
  }
  return out;
}

/** A long-running example: SIGTERM to its process group once its output matches `when` (a signal death reads as 143). */
function runUntil(line: string, s: Sandbox, when: RegExp): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawnReaped('sh', ['-c', line], { cwd: s.dir, env: s.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let stopped = false;
    const watch = () => {
      if (stopped || !when.test(stdout + stderr)) return;
      stopped = true;
      process.kill(-child.pid!, 'SIGTERM');
    };
    child.stdout!.on('data', (d) => ((stdout += d), watch()));
    child.stderr!.on('data', (d) => ((stderr += d), watch()));
    child.on('error', reject);
    child.on('close', (code, signal) => resolve({ code: code ?? (signal === 'SIGTERM' ? 143 : null), stdout, stderr }));
  });
}

describe('every example in every --help runs', () => {
  let examples: { command: string; example: string }[] = [];

  before(async () => {
    // One Redis server of the test's own for the queue examples (their queue.internal is mapped to it).
    const missing = redisServerMissing();
    if (missing) useRedis(undefined, missing);
    else {
      const redis = await startRedisServer({ after: (fn) => void stopRedis.push(fn) });
      useRedis(redis.url.replace(/\/\d+$/, ''));
    }
    bin = await tempDir('sluice-bin-');
    const entry = await sluiceBundle();
    await writeFile(join(bin, 'sluice'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(entry)} "$@"\n`);
    await chmod(join(bin, 'sluice'), 0o755);
    examples = await allExamples();
  });
  after(async () => {
    for (const stop of stopRedis) await stop();
    reapAll();
    await Promise.all([bin, ...dirs].map((d) => rm(d, { recursive: true, force: true })));
  });

  it('finds the examples of every command, nested ones included', () => {
    const commands = new Set(examples.map((e) => e.command));
    for (const c of ['init', 'gate', 'next', 'status', 'audit', 'profile validate', 'lifecycle record', 'tune', 'delegate', 'trust', 'waivers accept'])
      assert.ok(commands.has(c), `${c} has examples`);
    assert.ok(examples.length >= 60, `${examples.length} examples`);
  });

  it('each example does its job in a sandbox prepared for it', async (t) => {
    const failures: string[] = [];
    let ran = 0;
    const runOne = async ({ command, example }: { command: string; example: string }) => {
      const recipe = RECIPES[command];
      if (!recipe) return void failures.push(`${example}: no sandbox for \`${command}\` (add a recipe to test/cli/help-example-sandboxes.ts)`);
      const s = await sandbox(example);
      const expected = await recipe(command, s);
      if (expected.tty && !scriptAvailable) expected.skip = 'it asks on a terminal and `script` (util-linux) is not installed';
      if (expected.skip) return void t.diagnostic(`${example}: skipped, ${expected.skip}`);
      const pasted = expected.line ?? example;
      const line = expected.tty ? `script -qec ${shellQuote(pasted)} /dev/null` : pasted;
      const r = expected.stopWhen ? await runUntil(line, s, expected.stopWhen) : await runShell(line, s.dir, s.env, expected.tty);
      ran++;
      const output = `${r.stdout}${r.stderr}`;
      const codes = expected.codes ?? [0];
      const problems = [
        ...(codes.includes(r.code ?? -1) ? [] : [`exit ${r.code}, expected ${codes.join(' or ')}`]),
        ...(USAGE_ERRORS.test(r.stderr) ? ['a usage error'] : []),
        ...(expected.output && !expected.output.test(output) ? [`output does not match ${expected.output}`] : []),
      ];
      if (problems.length) failures.push(`${example} (${command}): ${problems.join('; ')}\n${output.trim().slice(0, 1500)}`);
    };
    // Two at a time: each example is its own process in its own folder.
    const pending = [...examples];
    await Promise.all(
      [0, 1].map(async () => {
        for (let next = pending.shift(); next; next = pending.shift()) await runOne(next);
      }),
    );
    assert.deepEqual(failures, []);
    t.diagnostic(`${ran} of ${examples.length} examples ran for real`);
  });
});
