import assert from 'node:assert/strict';
import { mkdir, mkdtemp, realpath, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { runCli } from '../helpers/run-cli.ts';

const json = (stdout: string) => JSON.parse(stdout) as Record<string, unknown> & { error?: { code: string; message: string } };

/** Every command finds its project as git finds its repository: the nearest folder up that holds one. */
describe('the project is found by searching upward from the current folder', () => {
  let root: string;
  let deep: string;

  before(async () => {
    root = await realpath(await mkdtemp(join(tmpdir(), 'sluice-search-')));
    deep = join(root, 'src', 'api', 'routes');
    await mkdir(deep, { recursive: true });
    const init = await runCli(['init', '--name', 'Search Demo'], { cwd: root });
    assert.equal(init.code, 0, init.stderr);
  });
  after(() => rm(root, { recursive: true, force: true }));

  it('`status` from a subfolder shows the project above it, as from its root', async () => {
    const fromRoot = await runCli(['status', '--json'], { cwd: root });
    const fromDeep = await runCli(['status', '--json'], { cwd: deep });
    assert.equal(fromDeep.code, 0, fromDeep.stdout + fromDeep.stderr);
    assert.deepEqual(json(fromDeep.stdout), json(fromRoot.stdout));
    const human = await runCli(['status'], { cwd: deep });
    assert.match(human.stdout, /^Search Demo \(profile starter/);
  });

  it('the SessionStart hook from a subfolder summarises the project, not `{}`', async () => {
    const r = await runCli(['handoff', '--hook', 'claude'], { cwd: deep });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      (json(r.stdout) as { hookSpecificOutput: { additionalContext: string } }).hookSpecificOutput.additionalContext,
      /^\[SDLC\] Project: Search Demo \|/,
    );
  });

  it('--cwd still wins: it names the project folder exactly, with no search', async () => {
    const r = await runCli(['status', '--json', '--cwd', deep], { cwd: root });
    assert.equal(r.code, 2);
    assert.equal(json(r.stdout).error?.code, 'PROJECT_MISSING');
  });

  it('a config file marks a project too, and the nearest marker wins', async () => {
    const inner = join(root, 'packages', 'tool');
    await mkdir(join(inner, 'lib'), { recursive: true });
    await writeFile(join(inner, 'sluice.config.yaml'), 'concurrency: 1\n');
    const r = await runCli(['status', '--json'], { cwd: join(inner, 'lib') });
    assert.equal(r.code, 2, 'the nearest project has no SDLC records');
    assert.equal(json(r.stdout).error?.code, 'PROJECT_MISSING');
    assert.match(json(r.stdout).error?.message ?? '', new RegExp(`no SDLC project in ${inner.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `));
  });

  it('`init` starts a project exactly where it is run, even inside another one', async () => {
    const sub = join(root, 'services', 'billing');
    await mkdir(sub, { recursive: true });
    const r = await runCli(['init', '--name', 'Billing', '--json'], { cwd: sub });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.ok((await stat(join(sub, '.sdlc', 'state.yaml'))).isFile());
    const status = await runCli(['status', '--json'], { cwd: sub });
    assert.equal(json(status.stdout).project, 'Billing');
  });

  it('with no project anywhere above, a command works in the current folder', async () => {
    const lone = await realpath(await mkdtemp(join(tmpdir(), 'sluice-lone-')));
    const r = await runCli(['status', '--json'], { cwd: lone });
    assert.equal(json(r.stdout).error?.code, 'PROJECT_MISSING');
    assert.match(json(r.stdout).error?.message ?? '', /\(\.sdlc\/state\.yaml does not exist\)/);
    await rm(lone, { recursive: true });
  });
});

describe('init creates every folder the phase registry requires', () => {
  it('phase 2 (Design) finds its adrs/ folder: G1 passes, and G2 asks for its content', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'sluice-init-folders-')));
    const init = await runCli(['init', '--json'], { cwd: dir });
    assert.equal(init.code, 0, init.stderr);
    assert.ok((json(init.stdout) as { artifactDirs: string[] }).artifactDirs.includes('.sdlc/artifacts/02-design/adrs'));
    assert.ok((await stat(join(dir, '.sdlc/artifacts/02-design/adrs'))).isDirectory());
    const gate = await runCli(['gate', '--phase', '2', '--json'], { cwd: dir });
    const rows = (json(gate.stdout) as { results: { id?: string; passed: boolean | null; message: string }[] }).results;
    assert.equal(rows.find((r) => r.id === 'G1:adrs/')?.passed, true, JSON.stringify(rows));
    assert.match(rows.find((r) => r.id === 'G2:adrs/')?.message ?? '', /is an empty folder/);
    await rm(dir, { recursive: true });
  });
});
