import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { scaled } from './fuzz-inputs.ts';
import { runSluice, startSluice, type CliResult } from './cli-bundle.ts';
import { withoutTimes } from './state-compare.ts';

/**
 * SIGKILL at random points: a command runs as a child process and is killed after a random delay
 * (fixed-seed PRNG, spread over the time an uncut run takes). After every kill the scenario checks
 * its invariants; a run that was not killed must have recovered whatever lock the last kill left
 * and continued. Violations are collected, not thrown, so one report lists them all.
 */
export interface KillScenario {
  name: string;
  /** The command line (after `--cwd DIR`). */
  args(): string[];
  /** The lock file a killed run may leave behind (where the next run will look). */
  lockPath(): string | undefined;
  /** Before a trial: put the project where the command has work to do (keep any stale lock). */
  prepare(trial: number): Promise<void>;
  /** After a kill: the state on disk is valid and either the old or the new version; returns which, or throws why not. */
  checkKilled(): Promise<string>;
  /** After a run that was not killed: it succeeded and left the new version; throws why not. */
  checkCompleted(run: CliResult): Promise<void>;
}

export interface KillStats {
  scenario: string;
  trials: number;
  kills: number;
  /** Kills that found each state (`old`, `new`, or a scenario's step names). */
  found: Record<string, number>;
  /** Kills that left the state's lock behind: the process died holding it. */
  locksLeft: number;
  completed: number;
  /** Completed runs that started with a dead process's lock on the state. */
  recoveredLocks: number;
  violations: string[];
  ms: number;
}

/**
 * A command that moves one state file from one version to the next: after a kill the file is
 * byte for byte the old one, or (parsed, validated, timestamps aside) exactly the new one.
 */
export function oldOrNewScenario<T>(o: {
  name: string;
  args: string[];
  statePath: string;
  oldText: string;
  /** Parses and validates as sluice does; throws otherwise. */
  parse(text: string): T;
  /** The new version, timestamps replaced (see state-compare.ts). */
  expected: T;
  /** What must never shrink from the old to a new version. */
  keeps(old: T, now: T): void;
  /** Puts back the records that go with the old file (a journal and its anchor), when there are any. */
  restore?: () => void;
}): KillScenario {
  const old = o.parse(o.oldText);
  const current = () => readFileSync(o.statePath, 'utf8');
  return {
    name: o.name,
    args: () => o.args,
    lockPath: () => `${o.statePath}.lock`,
    async prepare() {
      if (current() !== o.oldText) writeFileSync(o.statePath, o.oldText);
      o.restore?.();
    },
    async checkKilled() {
      const text = current();
      if (text === o.oldText) return 'old';
      const state = o.parse(text);
      o.keeps(old, state);
      assert.deepEqual(withoutTimes(state), o.expected, 'the state is neither the old nor the new version');
      return 'new';
    },
    async checkCompleted(run) {
      assert.equal(run.code, 0, `a run after a kill did not finish: ${run.stderr}`);
      assert.deepEqual(withoutTimes(o.parse(current())), o.expected);
    },
  };
}

/** Uncut runs from the old file: the new version (timestamps replaced) and how long a run takes. */
export async function uncutRuns<T>(
  dir: string,
  o: { args: string[]; statePath: string; oldText: string; parse(text: string): T; restore?: () => void },
): Promise<{ expected: T; ms: number }> {
  const first = await runSluice(dir, o.args);
  assert.equal(first.code, 0, first.stderr);
  const expected = withoutTimes(o.parse(readFileSync(o.statePath, 'utf8')));
  const ms = await uncutMs(async () => {
    writeFileSync(o.statePath, o.oldText);
    o.restore?.();
    return runSluice(dir, o.args);
  });
  return { expected, ms };
}

/**
 * What every kill test asserts: no violation, and most runs killed. Where the kills land depends on
 * the machine's load; `found` and `locksLeft` in the report say where they did.
 */
export function assertSurvived(stats: KillStats): void {
  assert.deepEqual(stats.violations, []);
  assert.ok(stats.kills >= stats.trials * 0.5, `most runs were killed (${stats.kills} of ${stats.trials})`);
}

/**
 * A crash test's body: 60 kill trials of the scenario `setup` makes, killed at the points `seed` picks,
 * reported on the test (`t.diagnostic`) and asserted survived. Returns the stats for further checks.
 */
export async function survivesKills(
  t: { diagnostic(message: string): void },
  setup: () => Promise<{ dir: string; scenario: KillScenario; ms: number }>,
  seed: number,
): Promise<KillStats> {
  const { dir, scenario, ms } = await setup();
  const stats = await killTrials(dir, scenario, { trials: 60, seed, uncutMs: ms });
  t.diagnostic(describeKills(stats));
  assertSurvived(stats);
  return stats;
}

/** mulberry32: a small seeded PRNG, so every CI run kills at the same points. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** How long an uncut run takes: the median of a few, since a loaded machine varies. */
export async function uncutMs(run: () => Promise<{ ms: number }>, times = 3): Promise<number> {
  const ms: number[] = [];
  for (let i = 0; i < times; i++) ms.push((await run()).ms);
  return ms.sort((a, b) => a - b)[times >> 1];
}

export async function killTrials(dir: string, scenario: KillScenario, o: { trials: number; seed: number; uncutMs: number }): Promise<KillStats> {
  const started = performance.now();
  const random = seededRandom(o.seed);
  const stats: KillStats = {
    scenario: scenario.name,
    trials: scaled(o.trials),
    kills: 0,
    found: {},
    locksLeft: 0,
    completed: 0,
    recoveredLocks: 0,
    violations: [],
    ms: 0,
  };
  const violation = (trial: number, what: string) => stats.violations.push(`${scenario.name}, trial ${trial}: ${what}`);
  // The length of a run, corrected as the machine's load changes: every run that finishes uncut
  // measures it, and after eight kills in a row the next run is left alone to measure it again.
  let length = o.uncutMs;
  let killedInARow = 0;
  for (let trial = 0; trial < stats.trials; trial++) {
    await scenario.prepare(trial);
    const lock = scenario.lockPath();
    const staleLock = lock !== undefined && existsSync(lock);
    const lockBefore = readLock(lock);
    // Half the kills anywhere after node has started, half in the last stretch, where state is
    // locked, read, written and unlocked (a window of tens of ms at the end of a run).
    const delay = killedInARow >= 8 ? Infinity : Math.round(length * (trial % 2 === 0 ? 0.2 + random() * 0.85 : 0.8 + random() * 0.18));
    const run = startSluice(dir, scenario.args());
    const outcome = await Promise.race([run.done, ...(delay === Infinity ? [] : [sleep(delay).then(() => 'timer' as const)])]);
    if (outcome === 'timer') run.child.kill('SIGKILL');
    const result = await run.done;
    try {
      if (result.signal === 'SIGKILL') {
        stats.kills++;
        killedInARow++;
        const found = await scenario.checkKilled();
        stats.found[found] = (stats.found[found] ?? 0) + 1;
        const after = readLock(scenario.lockPath());
        if (after !== undefined && after !== lockBefore) stats.locksLeft++;
      } else {
        stats.completed++;
        killedInARow = 0;
        length = result.ms;
        if (staleLock) stats.recoveredLocks++;
        await scenario.checkCompleted(result);
      }
    } catch (error) {
      violation(trial, error instanceof Error ? error.message : String(error));
    }
  }
  // The last word: one more run after the last kill, starting from a dead process's lock (the one
  // the last kill left, or one made for a process that has exited), must take it over and finish.
  await scenario.prepare(stats.trials);
  const lock = scenario.lockPath();
  if (lock !== undefined && !existsSync(lock))
    writeFileSync(lock, JSON.stringify({ pid: deadPid(), hostname: hostname(), acquiredAt: new Date().toISOString(), purpose: 'killed' }));
  try {
    const final = await startSluice(dir, scenario.args()).done;
    stats.completed++;
    if (lock !== undefined) stats.recoveredLocks++;
    await scenario.checkCompleted(final);
  } catch (error) {
    violation(stats.trials, `the run after the last kill: ${error instanceof Error ? error.message : String(error)}`);
  }
  stats.ms = Math.round(performance.now() - started);
  return stats;
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid;
}

const readLock = (path: string | undefined) => (path !== undefined && existsSync(path) ? readFileSync(path, 'utf8') : undefined);

export function describeKills(s: KillStats): string {
  const found = Object.entries(s.found)
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  return `${s.scenario}: ${s.trials} runs, ${s.kills} killed (found ${found}; ${s.locksLeft} died holding the lock), ${s.completed} completed (${s.recoveredLocks} after taking over a dead process's lock), ${s.violations.length} invariant violations, ${s.ms} ms`;
}
