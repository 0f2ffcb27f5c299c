import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, readFile, rm, stat, symlink, utimes, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startSluice, type CliResult } from './cli-bundle.ts';

/**
 * Files that are not what sluice expects, through the built CLI: special files in place of config,
 * state, artifacts and the handoff, writes that would not read back, symlinked output folders and
 * file modes. Each run has a watchdog: a run that hangs is killed (with its group) and fails the test.
 */
const HANG_GUARD_MS = 120_000;

async function sluice(dir: string, ...args: string[]): Promise<CliResult> {
  const run = startSluice(dir, args);
  const guard = setTimeout(() => run.child.pid !== undefined && process.kill(-run.child.pid, 'SIGKILL'), HANG_GUARD_MS);
  try {
    const result = await run.done;
    assert.equal(result.signal, null, `sluice ${args.join(' ')} did not finish on its own (killed by ${result.signal})`);
    return result;
  } finally {
    clearTimeout(guard);
  }
}

const project = (prefix: string) => mkdtemp(join(tmpdir(), `sluice-hostile-${prefix}-`));

function refusedNotRegular(r: CliResult, file: string, kind: string): void {
  assert.equal(r.code, 2, `exit 2 expected, got ${r.code}: ${r.stderr}`);
  assert.match(r.stderr, new RegExp(`FILE_NOT_REGULAR: ${file.replace(/\./g, '\\.')}: is a ${kind}`));
  assert.doesNotMatch(r.stderr, /INTERNAL/);
}

/** Replaces `path` by a FIFO nobody writes to: reading it the ordinary way waits forever. */
function fifoAt(path: string): void {
  execFileSync('rm', ['-f', path]);
  execFileSync('mkfifo', [path]);
}

async function sdlcProject(prefix: string): Promise<string> {
  const dir = await project(prefix);
  const init = await sluice(dir, 'init');
  assert.equal(init.code, 0, init.stderr);
  return dir;
}

async function lifecycleProject(prefix: string): Promise<string> {
  const dir = await project(prefix);
  execFileSync('git', ['init', '-q', dir]);
  const start = await sluice(dir, 'lifecycle', 'start', 'demo', '--goal', 'Parse the config');
  assert.equal(start.code, 0, start.stderr);
  return dir;
}

describe('readers refuse what is not a regular file, without hanging or reading it', () => {
  it('sluice.config.yaml -> /dev/zero: refused at once, exit 2, not read into memory', async () => {
    const dir = await project('zero');
    await symlink('/dev/zero', join(dir, 'sluice.config.yaml'));
    refusedNotRegular(await sluice(dir, 'plugins'), 'sluice.config.yaml', 'character device');
  });

  it('a FIFO as sluice.config.yaml', async () => {
    const dir = await project('fifo-config');
    fifoAt(join(dir, 'sluice.config.yaml'));
    refusedNotRegular(await sluice(dir, 'plugins'), 'sluice.config.yaml', 'FIFO');
  });

  it('a FIFO as the SDLC state, for a reading and an updating command', async () => {
    const dir = await sdlcProject('fifo-state');
    fifoAt(join(dir, '.sdlc', 'state.yaml'));
    refusedNotRegular(await sluice(dir, 'status'), '.sdlc/state.yaml', 'FIFO');
    refusedNotRegular(await sluice(dir, 'gate'), '.sdlc/state.yaml', 'FIFO');
    assert.equal(existsSync(join(dir, '.sdlc', 'state.yaml.lock')), false, 'the lock was released');
  });

  it('a FIFO as the session handoff', async () => {
    const dir = await sdlcProject('fifo-handoff');
    fifoAt(join(dir, '.sdlc', 'artifacts', 'build', 'session-handoff.json'));
    refusedNotRegular(await sluice(dir, 'handoff'), '.sdlc/artifacts/build/session-handoff.json', 'FIFO');
  });

  it('a FIFO as a lifecycle artifact, and a folder as a workflow state', async () => {
    const dir = await lifecycleProject('fifo-artifact');
    fifoAt(join(dir, '.prizmkit', 'specs', 'demo', 'plan.md'));
    refusedNotRegular(await sluice(dir, 'lifecycle', 'record', 'demo', 'plan'), '.prizmkit/specs/demo/plan.md', 'FIFO');
    const state = join(dir, '.prizmkit', 'state', 'workflows', 'demo.json');
    await rm(state);
    await mkdir(state);
    refusedNotRegular(await sluice(dir, 'lifecycle', 'status', 'demo'), '.prizmkit/state/workflows/demo.json', 'directory');
  });
});

describe('writes', () => {
  it('a state update that would pass the read limit is refused and nothing is written', async () => {
    // SDLC state keeps keys other tools add, so a project can legitimately sit just under the
    // 16 MiB read limit; the gate run's results would push it over. (A lifecycle state cannot be
    // padded by hand: its journal reports that as STATE_TAMPERED.)
    const dir = await sdlcProject('cap');
    const path = join(dir, '.sdlc', 'state.yaml');
    const original = await readFile(path, 'utf8');
    const limit = 16 * 1024 * 1024;
    const text = `${original}x_other_tool: "${'x'.repeat(limit - Buffer.byteLength(original) - 64)}"\n`;
    await writeFile(path, text);
    const gate = await sluice(dir, 'gate');
    assert.equal(gate.code, 2, gate.stderr);
    assert.match(gate.stderr, /INVARIANT_VIOLATED: \.sdlc\/state\.yaml: .*over the 16777216 byte limit.*nothing was written/);
    assert.equal(await readFile(path, 'utf8'), text, 'the state file is untouched');
    const status = await sluice(dir, 'status');
    assert.equal(status.code, 0, `the project still works: ${status.stderr}`);
  });

  it('an atomic write keeps the file mode: a 0600 state stays 0600', async () => {
    const dir = await sdlcProject('mode');
    const path = join(dir, '.sdlc', 'state.yaml');
    await chmod(path, 0o600);
    const before = await readFile(path, 'utf8');
    const gate = await sluice(dir, 'gate');
    assert.equal(gate.code, 1, gate.stderr);
    assert.notEqual(await readFile(path, 'utf8'), before, 'the gate run rewrote the state');
    assert.equal((await stat(path)).mode & 0o777, 0o600);
  });

  it('a symlinked .sluice/transcripts does not carry a transcript out of the project', async () => {
    const dir = await project('transcripts');
    const outside = await project('outside');
    await mkdir(join(dir, '.sluice'));
    await symlink(outside, join(dir, '.sluice', 'transcripts'));
    await writeFile(join(dir, 'script.yaml'), 'version: 1\nrules:\n  - match: "hi"\n    reply: "hello"\n');
    const r = await sluice(dir, 'delegate', '--to', 'script', '--script', 'script.yaml', 'hi');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /PATH_OUTSIDE_PROJECT: .*transcript.*\.sluice\/transcripts\/.*symlink/);
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside');
  });

  it('a symlinked .prizmkit/specs does not carry a spec (or a folder) out of the project', async () => {
    const dir = await project('specs');
    execFileSync('git', ['init', '-q', dir]);
    const outside = await project('outside');
    await mkdir(join(dir, '.prizmkit'));
    await symlink(outside, join(dir, '.prizmkit', 'specs'));
    const r = await sluice(dir, 'lifecycle', 'start', 'demo', '--goal', 'Parse the config');
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /PATH_OUTSIDE_PROJECT: .*\.prizmkit\/specs\/demo.*symlink/);
    assert.deepEqual(readdirSync(outside), [], 'nothing was written outside');
    assert.equal(existsSync(join(dir, '.prizmkit', 'state', 'workflows', 'demo.json')), false, 'no state for a refused start');
  });
});

describe('a lock held from another host', () => {
  /** A lock file as a sluice on another machine writes it, made `minutes` ago, last refreshed `beatMinutesAgo`. */
  async function foreignLock(path: string, minutes: number, beatMinutesAgo: number): Promise<void> {
    const ago = (m: number) => new Date(Date.now() - m * 60_000);
    await writeFile(
      path,
      JSON.stringify({
        pid: 4321,
        hostname: 'another-build-host',
        acquiredAt: ago(minutes).toISOString(),
        purpose: 'sluice next',
        heartbeatAt: ago(beatMinutesAgo).toISOString(),
        heartbeatMs: 30_000,
      }),
    );
    await utimes(path, ago(beatMinutesAgo), ago(beatMinutesAgo));
  }

  it('is not taken over for its age while its heartbeat is fresh; a lapsed heartbeat is', async () => {
    const dir = await sdlcProject('foreign-lock');
    await writeFile(join(dir, 'sluice.config.yaml'), 'lockWaitMs: 0\n');
    const lock = join(dir, '.sdlc', 'state.yaml.lock');
    // Held for 20 minutes (twice the old file-age limit), refreshed just now: a live holder.
    await foreignLock(lock, 20, 0);
    await utimes(lock, new Date(Date.now() - 20 * 60_000), new Date(Date.now() - 20 * 60_000));
    const held = await sluice(dir, 'gate');
    assert.equal(held.code, 3, held.stderr);
    assert.match(held.stderr, /LOCK_BUSY: .*process 4321 on another-build-host/);
    // Its last beat 20 minutes ago: the holder is gone, the lock is stale.
    await foreignLock(lock, 40, 20);
    const taken = await sluice(dir, 'gate');
    assert.equal(taken.code, 1, `the gate ran (MUST gates fail in a new project): ${taken.stderr}`);
    assert.equal(existsSync(lock), false);
  });
});
