// Reliability figures: a reduced run of the hardening suite's own harnesses (test/hardening):
// every file reader fed generated inputs and special shapes, and the three crash scenarios
// SIGKILLed at random points. Invariant violations must be 0.
import { fuzzReader, type NamedReader } from '../../test/hardening/fuzz-reader.ts';
import { lifecycleRecordScenario, nextConfirmedScenario, tuneIterationScenario } from '../../test/hardening/kill-scenarios.ts';
import { killTrials } from '../../test/hardening/kill-trials.ts';
import { lifecycleReaders } from '../../test/hardening/reader-specs-lifecycle.ts';
import { sdlcReaders } from '../../test/hardening/reader-specs-sdlc.ts';
import { tuneConfigReaders } from '../../test/hardening/reader-specs-tune-config.ts';

export const name = 'reliability';

/** Generated inputs per reader here; the test suite feeds 1,000 (`npm run soak`: 10,000). */
const INPUTS_PER_READER = 100;
const KILLS_PER_SCENARIO = 12;

async function fuzzAll(readers: readonly NamedReader[]) {
  const started = performance.now();
  const totals = {
    readers: readers.length,
    inputsFuzzed: 0,
    specialShapes: 0,
    accepted: 0,
    refused: 0,
    slowestInputMs: 0,
    violations: 0,
    failures: [] as string[],
  };
  for (const { name: reader, spec } of readers) {
    try {
      const s = await fuzzReader({ ...spec, runs: INPUTS_PER_READER });
      totals.inputsFuzzed += s.inputs;
      totals.specialShapes += s.specialShapes;
      totals.accepted += s.accepted;
      totals.refused += s.inputs - s.accepted;
      totals.slowestInputMs = Math.max(totals.slowestInputMs, Math.round(s.slowestMs));
    } catch (error) {
      // The harness stops a reader at its first violation.
      totals.violations++;
      totals.failures.push(`${reader}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    }
  }
  return { ...totals, fuzzMs: Math.round(performance.now() - started) };
}

async function killAll() {
  const started = performance.now();
  const totals = { scenarios: 0, runs: 0, kills: 0, killsThatLeftTheLock: 0, completed: 0, locksTakenOver: 0, violations: 0, failures: [] as string[] };
  for (const [seed, setup] of [nextConfirmedScenario, lifecycleRecordScenario, tuneIterationScenario].entries()) {
    const { dir, scenario, ms } = await setup();
    const s = await killTrials(dir, scenario, { trials: KILLS_PER_SCENARIO, seed: seed + 1, uncutMs: ms });
    totals.scenarios++;
    totals.runs += s.trials + 1;
    totals.kills += s.kills;
    totals.killsThatLeftTheLock += s.locksLeft;
    totals.completed += s.completed;
    totals.locksTakenOver += s.recoveredLocks;
    totals.violations += s.violations.length;
    totals.failures.push(...s.violations);
  }
  return { ...totals, killMs: Math.round(performance.now() - started) };
}

export async function run(): Promise<Record<string, unknown>> {
  const fuzz = await fuzzAll([...sdlcReaders, ...lifecycleReaders, ...tuneConfigReaders]);
  const kills = await killAll();
  return {
    inputsFuzzed: fuzz.inputsFuzzed,
    killsSurvived: kills.kills - kills.violations,
    invariantViolations: fuzz.violations + kills.violations,
    fuzz,
    kills,
  };
}
