import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmod, copyFile, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { sdlcKernel, tempDir, walkTo, writeCurrentArtifacts } from '../sdlc/sdlc-fixture.ts';
import { sluiceBundle } from '../sdlc/sluice-cli.ts';

/**
 * Every example printed by every command's --help is run as a user would paste it (through `sh -c`,
 * pipes and redirections included, with `sluice` on PATH) in a project prepared for it. An example
 * must never be a usage error (a wrong id, an unknown option, a missing argument: exit 2 with
 * USAGE, UNKNOWN_COMMAND or PHASE_UNKNOWN). The SDLC and view commands, whose projects are set up
 * here, must reach their verdict: exit 0, or 1 when the project is honestly blocked.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const USAGE_ERRORS = /\b(USAGE|UNKNOWN_COMMAND|PHASE_UNKNOWN)\b/;
/** Commands whose examples run against projects this file prepares, so only exit 0/1 passes. */
const VERDICT_COMMANDS = new Set([
  'init',
  'gate',
  'next',
  'skip',
  'reenter',
  'refreeze',
  'status',
  'audit',
  'report',
  'specs',
  'handoff',
  'schema',
  'profile validate',
  'plugins',
]);

let bin: string;
const children = new Set<ReturnType<typeof spawn>>();

function sh(command: string, cwd: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('sh', ['-c', command], {
      cwd,
      env: { ...process.env, PATH: `${bin}:${process.env.PATH}`, NO_COLOR: '1', SLUICE_USER: 'example-user' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.add(child);
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => {
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

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

/** Every command path (`next`, `lifecycle start`) and the examples its --help prints. */
async function allExamples(): Promise<{ command: string; example: string }[]> {
  const out: { command: string; example: string }[] = [];
  const top = await sh('sluice --help', root);
  const queue = commandNames(top.stdout).map((n) => [n]);
  while (queue.length) {
    const path = queue.shift()!;
    const help = (await sh(`sluice ${path.join(' ')} --help`, root)).stdout;
    for (const example of examplesOf(help)) out.push({ command: path.join(' '), example });
    for (const sub of commandNames(help)) queue.push([...path, sub]);
  }
  return out;
}

/**
 * A folder where an example of `command` can do its job: the SDLC project with Discovery's
 * artifacts written (next's example ids are real), walked to the Build loop for re-entry, a
 * handoff file for `handoff`, sibling projects for `--compare ../other-service` and `--repo ../service`.
 */
async function workspaceFor(command: string, example: string): Promise<string> {
  const parent = await tempDir('sluice-example-');
  const dir = join(parent, 'project');
  await mkdir(dir);
  // Other workflows (delegate, tune, lifecycle, trust, hooks) need no SDLC project.
  if (!VERDICT_COMMANDS.has(command) || (command === 'init' && !example.includes('--force'))) return dir;
  const kernel = await sdlcKernel(dir);
  const { runCommand } = await import('../../plugins/sdlc/demo/run-command.ts');
  assert.equal((await runCommand(kernel, 'init', [], { name: 'Example', type: 'service' })).exitCode, 0);
  if (command === 'reenter') await walkTo(kernel, 'build');
  await writeCurrentArtifacts(kernel);
  if (command === 'handoff') {
    await mkdir(join(dir, '.sdlc/artifacts/build'), { recursive: true });
    await copyFile(join(root, 'test/fixtures/sdlc-views/session-handoff.json'), join(dir, '.sdlc/artifacts/build/session-handoff.json'));
  }
  if (command === 'audit') {
    const other = join(parent, 'other-service');
    await mkdir(other);
    assert.equal((await runCommand(await sdlcKernel(other), 'init', [], {})).exitCode, 0);
  }
  if (command === 'specs') {
    for (const repo of [dir, join(parent, 'service')]) {
      await mkdir(join(repo, 'specs'), { recursive: true });
      await writeFile(join(repo, 'specs', '0001-login.md'), '---\nspec: "0001"\nname: Login\nstatus: in-flight\nrisk: HIGH\n---\n# Login\n');
    }
  }
  if (command === 'profile validate') {
    await mkdir(join(dir, 'packs', 'acme'), { recursive: true });
    const starter = await readFile(join(root, 'plugins/sdlc/packs/starter/profile.yaml'), 'utf8');
    await writeFile(join(dir, 'packs', 'acme', 'profile.yaml'), starter);
    await writeFile(join(dir, 'profile.yaml'), starter);
  }
  return dir;
}

describe('every example in every --help runs', () => {
  let examples: { command: string; example: string }[] = [];
  const dirs: string[] = [];

  before(async () => {
    bin = await tempDir('sluice-bin-');
    const entry = await sluiceBundle();
    await writeFile(join(bin, 'sluice'), `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(entry)} "$@"\n`);
    await chmod(join(bin, 'sluice'), 0o755);
    examples = await allExamples();
  });
  after(async () => {
    for (const child of children) child.kill('SIGKILL');
    await Promise.all([bin, ...dirs.map((d) => dirname(d))].map((d) => rm(d, { recursive: true, force: true })));
  });

  it('finds the examples of every command, nested ones included', () => {
    const commands = new Set(examples.map((e) => e.command));
    for (const c of ['init', 'gate', 'next', 'skip', 'reenter', 'refreeze', 'status', 'audit', 'report', 'handoff', 'profile validate'])
      assert.ok(commands.has(c), `${c} has examples`);
    assert.ok(examples.length >= 25, `${examples.length} examples`);
  });

  it('the SDLC and view examples reach their verdict; no example is a usage error', async (t) => {
    const failures: string[] = [];
    const runOne = async ({ command, example }: { command: string; example: string }) => {
      // The demo walks every workflow for a minute; it has its own test. Its flags are checked by parsing.
      const line = command === 'demo' ? `${example} --help` : example;
      const dir = await workspaceFor(command, example);
      dirs.push(dir);
      const r = await sh(line, dir);
      const verdict = VERDICT_COMMANDS.has(command);
      if (USAGE_ERRORS.test(r.stderr) || (verdict && r.code !== 0 && r.code !== 1))
        failures.push(`${example} (in a ${command} project): exit ${r.code}\n${r.stderr.trim()}`);
      else if (!verdict) t.diagnostic(`${line}: exit ${r.code} (checked for usage errors only)`);
    };
    // Two at a time: each example is its own process in its own folder.
    const pending = [...examples];
    await Promise.all(
      [0, 1].map(async () => {
        for (let next = pending.shift(); next; next = pending.shift()) await runOne(next);
      }),
    );
    assert.deepEqual(failures, []);
  });
});
