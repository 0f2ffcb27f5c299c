import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { childOutput } from '../helpers/child-output.ts';
import { spawnReaped } from '../helpers/reap-children.ts';
import { cliBundle, runSluice, type CliResult } from './cli-bundle.ts';

/**
 * What the system refuses, through the built CLI: a full disk (a 256 KiB tmpfs), a read-only mount
 * (a read-only bind mount) and a folder the user may not write (sluice run as `nobody`). Each must be
 * a one-line error naming the file, exit 2, with the state left as it was and no lock left behind.
 * Mounting and changing user need root; elsewhere these tests skip and say why.
 */
const isRoot = process.getuid?.() === 0;
const canMount = isRoot && spawnSync('mount', ['--version']).status === 0;
const hasBwrap = spawnSync('bwrap', ['--bind', '/', '/', 'true']).status === 0;
const mounts: string[] = [];
after(() => {
  for (const m of mounts.reverse()) spawnSync('umount', ['-l', m]);
});

async function mountTmpfs(size: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'sluice-tmpfs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir]);
  mounts.push(dir);
  return dir;
}

async function initProject(dir: string): Promise<void> {
  const init = await runSluice(dir, ['init']);
  assert.equal(init.code, 0, init.stderr);
}

const stateText = (dir: string) => readFile(join(dir, '.sdlc', 'state.yaml'), 'utf8');
const onTmpfs = { skip: canMount ? false : 'needs root to mount a small tmpfs' };

/** A project `sluice init` made on a fresh 256 KiB tmpfs, and its state file's text as init left it. */
async function projectOnTmpfs(): Promise<{ dir: string; before: string }> {
  const dir = await mountTmpfs('256k');
  await initProject(dir);
  return { dir, before: await stateText(dir) };
}

/** Fills the file system holding `dir`, leaving `leaveBytes` free (in whole pages). */
function fill(dir: string, leaveBytes = 0): string {
  const filler = join(dir, 'filler');
  spawnSync('dd', ['if=/dev/zero', `of=${filler}`, 'bs=4k'], { stdio: 'ignore' });
  if (leaveBytes > 0) execFileSync('truncate', ['-s', `-${leaveBytes}`, filler]);
  return filler;
}

function refused(r: CliResult, code: string, file: RegExp): void {
  assert.equal(r.code, 2, `exit 2 expected, got ${r.code}: ${r.stderr}`);
  const line = r.stderr.split('\n')[0];
  assert.match(line, new RegExp(`^error ${code}: `));
  assert.match(line, file);
  assert.doesNotMatch(r.stderr, /INTERNAL|bug in sluice|\n\s+at /);
}

const leftovers = (dir: string) => readdirSync(join(dir, '.sdlc')).filter((n) => n.endsWith('.lock') || n.endsWith('.tmp') || n.endsWith('.steal'));

describe('a full disk, a read-only mount, a folder sluice may not write', () => {
  it('ENOSPC while creating the lock: DISK_FULL naming it, and no empty lock left to read as "locked"', onTmpfs, async () => {
    const { dir, before } = await projectOnTmpfs();
    const filler = fill(dir);
    refused(await runSluice(dir, ['gate']), 'DISK_FULL', /\.sdlc\/state\.yaml\.lock: no space left on the device/);
    assert.deepEqual(leftovers(dir), [], 'no lock or temp file left');
    assert.equal(await stateText(dir), before);
    await rm(filler);
    const again = await runSluice(dir, ['gate']);
    assert.equal(again.code, 1, `with space again the gate runs (MUST gates fail in a new project): ${again.stderr}`);
  });

  it('ENOSPC while writing the state: DISK_FULL naming the state, which is unchanged', onTmpfs, async () => {
    const { dir, before } = await projectOnTmpfs();
    // One page free: enough for the lock file, not for the new state.
    fill(dir, 4096);
    refused(await runSluice(dir, ['gate']), 'DISK_FULL', /\.sdlc\/state\.yaml: no space left on the device/);
    assert.equal(await stateText(dir), before);
    assert.deepEqual(leftovers(dir), [], 'no lock or temp file left');
  });

  it('EROFS: FILE_SYSTEM_READ_ONLY naming the file', { skip: canMount ? false : 'needs root for a read-only bind mount' }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-rw-'));
    await initProject(dir);
    const ro = await mkdtemp(join(tmpdir(), 'sluice-ro-'));
    execFileSync('mount', ['--bind', dir, ro]);
    mounts.push(ro);
    execFileSync('mount', ['-o', 'remount,bind,ro', ro]);
    refused(await runSluice(ro, ['gate']), 'FILE_SYSTEM_READ_ONLY', /\.sdlc\/state\.yaml(\.lock)?: the file system is read-only/);
    const status = await runSluice(ro, ['status']);
    assert.equal(status.code, 0, `reading still works: ${status.stderr}`);
  });

  it("a state file a sandbox binds read-only (as Claude Code's does): FILE_SYSTEM_READ_ONLY naming it and the route that works", {
    skip: hasBwrap ? false : 'needs bubblewrap (bwrap)',
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-sandboxed-'));
    await initProject(dir);
    const state = join(dir, '.sdlc', 'state.yaml');
    const before = await stateText(dir);
    const r = await inBwrap(['--ro-bind', state, state], dir, ['gate']);
    refused(r, 'FILE_SYSTEM_READ_ONLY', /\.sdlc\/state\.yaml: is mounted over or held open \(EBUSY\): a sandbox keeps it read-only/);
    assert.match(r.stderr, /use the sluice MCP tools, or run the command in your own terminal/);
    assert.equal(await stateText(dir), before);
    assert.deepEqual(leftovers(dir), [], 'no lock or temp file left');
  });

  it('EACCES: FILE_ACCESS_DENIED naming the file, for a user who may read but not write the project', {
    skip: isRoot ? false : 'needs root to run sluice as another user',
  }, async () => {
    const dir = await mkdtemp(join(tmpdir(), 'sluice-eacces-'));
    await initProject(dir);
    // Readable by everyone, writable by its owner (root) only.
    execFileSync('chmod', ['-R', 'a+rX,go-w', dir]);
    await chmod(dir, 0o755);
    const r = await asNobody(dir, ['gate']);
    refused(r, 'FILE_ACCESS_DENIED', /\.sdlc\/state\.yaml(\.lock)?: permission denied/);
    assert.equal(existsSync(join(dir, '.sdlc', 'state.yaml.lock')), false);
  });
});

/**
 * The built CLI as user `nobody`, in its own reaped process group, with a clean environment: tap
 * adds its process-info hooks to every node it can see started, and they write into the repo,
 * which `nobody` may not.
 */
function asNobody(dir: string, args: string[]): Promise<CliResult> {
  // SLUICE_TEST_RUN stays: scripts/test.mjs finds the suite's leftover processes by it.
  const env = [
    'env',
    '-i',
    `PATH=${process.env.PATH ?? '/usr/bin:/bin'}`,
    `HOME=${dir}`,
    'NO_COLOR=1',
    'SLUICE_NO_CACHE=1',
    ...(process.env.SLUICE_TEST_RUN ? [`SLUICE_TEST_RUN=${process.env.SLUICE_TEST_RUN}`] : []),
  ];
  const child = spawnReaped('setpriv', ['--reuid=65534', '--regid=65534', '--clear-groups', ...env, process.execPath, cliBundle(), '--cwd', dir, ...args], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  return childOutput(child).then((output) => ({ ...output, ms: 0 }));
}

/** The built CLI inside bubblewrap with the whole file system as it is, plus the given binds. */
function inBwrap(binds: string[], dir: string, args: string[]): Promise<CliResult> {
  const child = spawnReaped(
    'bwrap',
    ['--bind', '/', '/', ...binds, '--dev', '/dev', '--proc', '/proc', '--die-with-parent', process.execPath, cliBundle(), '--cwd', dir, ...args],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', SLUICE_NO_CACHE: '1' } },
  );
  return childOutput(child).then((output) => ({ ...output, ms: 0 }));
}
