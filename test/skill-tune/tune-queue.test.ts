import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readdir, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { reap, spawnReaped } from '../helpers/reap-children.ts';
import { redisServerMissing, startRedisServer, type TestRedis } from '../helpers/redis-server.ts';
import { runCli, sluiceEntry } from '../helpers/run-cli.ts';
import { evaluateScores, executeAny, improveAny, read, readState, skillText, tuneProject, type Rule } from './tune-harness.ts';
import { scriptBackends } from '../helpers/tune-backends.ts';
import { useTestQueueKey } from '../helpers/queue-key.ts';

// Every sluice this file starts signs and verifies jobs with the test's own queue key.
useTestQueueKey();

/** A `sluice worker` process, one job at a time, in a folder of its own (not the project): ready once it says so. */
async function startWorker(redis: TestRedis, script: string): Promise<void> {
  const workdir = await mkdtemp(join(tmpdir(), 'sluice-tune-worker-'));
  const child = spawnReaped(process.execPath, [sluiceEntry(), 'worker', '--queue', redis.url, '--concurrency', '1', '--cwd', workdir], {
    env: { ...process.env, NO_COLOR: '1', SLUICE_DELEGATE_SCRIPT: script },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  redis.beforeStop(() => reap(child));
  let out = '';
  await new Promise<void>((ready, failed) => {
    child.stdout!.on('data', (d) => {
      out += d;
      if (/ready on/.test(out)) ready();
    });
    child.once('exit', (code) => failed(new Error(`worker exited with ${code} before it was ready: ${out}`)));
  });
}

/** Two skills whose tunes take a while (each execution waits), so both workers get one. */
const slowExecute: Rule = { ...executeAny, reply: { ...(executeAny.reply as object), delayMs: 400 } };
const improve = (id: string): Rule => ({ ...improveAny(id), match: `role=improve iteration=(\\d+) skill=${id} ` });

describe('sluice tune --queue', { skip: redisServerMissing() }, () => {
  it('tunes independent skills in parallel on two workers, each in its own run folder of the project', async (t) => {
    const redis = await startRedisServer(t);
    const dir = await tuneProject({ a: skillText('a'), b: skillText('b') }, [slowExecute, ...evaluateScores([60, 85]), improve('a'), improve('b')]);
    await startWorker(redis, join(dir, 'tune.yaml'));
    await startWorker(redis, join(dir, 'tune.yaml'));
    const r = await runCli(['tune', 'a,b', '--scenario', 'write it', '-y', ...scriptBackends, '--queue', redis.url, '--cwd', dir]);
    assert.equal(r.code, 0, r.stderr);
    // The workers' progress reaches the orchestrator, line by line, per skill.
    assert.match(r.stdout, /a: iteration 1: score 60/);
    assert.match(r.stdout, /b: iteration 2: score 85/);
    const ranOn = [...r.stdout.matchAll(/\(on (\S+)\)/g)].map((m) => m[1]);
    assert.equal(ranOn.length, 2, r.stdout);
    assert.notEqual(ranOn[0], ranOn[1], 'each skill ran on its own worker');
    const runs = await readdir(join(dir, '.sluice', 'runs'));
    assert.equal(runs.length, 2);
    const states = await Promise.all(runs.map((run) => readState(join(dir, '.sluice', 'runs', run))));
    assert.deepEqual(states.map((s) => s.chain_order.join()).sort(), ['a', 'b']);
    assert.ok(states.every((s) => s.termination?.reason === 'quality_threshold_met'));
    for (const id of ['a', 'b']) assert.match(await read(join(dir, '.claude/skills', id, 'SKILL.md')), /Improved in iteration 1/);
  });

  it('reports each skill’s run: one tuned, one refused because another run holds it (exit 3, nothing lost)', async (t) => {
    const redis = await startRedisServer(t);
    const dir = await tuneProject({ a: skillText('a'), b: skillText('b') }, [executeAny, ...evaluateScores([90])]);
    // A live process (this test) tunes b already.
    await mkdir(join(dir, '.sluice', 'locks'), { recursive: true });
    await writeFile(
      join(dir, '.sluice', 'locks', 'tune-.claude_skills_b.lock'),
      JSON.stringify({ pid: process.pid, hostname: hostname(), acquiredAt: new Date().toISOString() }),
    );
    await startWorker(redis, join(dir, 'tune.yaml'));
    const r = await runCli(['tune', 'a,b', '--scenario', 'write it', '-y', ...scriptBackends, '--queue', redis.url, '--cwd', dir, '--json']);
    assert.equal(r.code, 3, r.stderr);
    const { runs } = JSON.parse(r.stdout) as { runs: { skills: string; reason?: string; error?: { code: string } }[] };
    assert.deepEqual(
      runs.map((x) => [x.skills, x.reason ?? x.error?.code]),
      [
        ['a', 'quality_threshold_met'],
        ['b', 'LOCK_BUSY'],
      ],
    );
    assert.equal((await readdir(join(dir, '.sluice', 'runs'))).length, 1, 'the refused skill left no run folder');
  });

  it('keeps a chain in one job, and reports as a local run does (--json)', async (t) => {
    const redis = await startRedisServer(t);
    const dir = await tuneProject({ a: skillText('a'), b: skillText('b') }, [executeAny, ...evaluateScores([90])]);
    await startWorker(redis, join(dir, 'tune.yaml'));
    const r = await runCli(['tune', 'a,b', '--chain', '--scenario', 'write it', '-y', ...scriptBackends, '--queue', redis.url, '--cwd', dir, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const data = JSON.parse(r.stdout);
    assert.equal(data.reason, 'quality_threshold_met');
    const state = await readState(data.runDir);
    assert.equal(state.execution_mode, 'chain');
    assert.deepEqual(state.chain_order, ['a', 'b']);
    assert.equal((await readdir(join(dir, '.sluice', 'runs'))).length, 1);
  });
});
