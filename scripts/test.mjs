#!/usr/bin/env node
// The whole test suite, as CI runs it: typecheck (all code, and core/ without Node types),
// bundle, the tap suite under Node, the core suite and the bundle under Deno.
// Ends with one line: `N passed, N failed` (tests counted across every leg).
// A leg that leaves a process running counts as a failure (see scripts/test/leftover-processes.mjs);
// Ctrl-C or a CI cancel stops the running leg's whole process group.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { newRunMarker, reapLeftovers } from './test/leftover-processes.mjs';
import { tapFailures } from './test/tap-failures.mjs';

const bin = (name) => `node_modules/.bin/${name}`;
const deno = existsSync(bin('deno')) ? bin('deno') : 'node_modules/@deno/linux-x64-glibc/deno';
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
const marker = newRunMarker();
// sluice's user state folder (record key, journal anchors) for this run only: tests never write the
// person's real ~/.local/state/sluice. A test that plays "another machine" sets its own XDG_STATE_HOME.
const stateHome = mkdtempSync(join(tmpdir(), 'sluice-test-state-'));
process.on('exit', () => rmSync(stateHome, { recursive: true, force: true }));
const suiteStarted = Date.now();
/** The whole suite on an idle 2-core machine; over it, the summary says so (timing is not a test result). */
const BUDGET_S = 600;
let running;
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
  process.on(signal, () => {
    if (running?.pid !== undefined) {
      try {
        process.kill(-running.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    process.exit(130);
  });
}

/**
 * Runs one leg in its own process group. `showLine`, when given, picks the stdout lines echoed
 * (the rest is still captured): the tap leg echoes one line per test file, not the whole TAP stream.
 */
function run(label, command, args, { capture = false, env = {}, showLine } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n`);
    // Its own process group, so a cancel stops everything the leg started.
    const child = spawn(command, args, {
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      // No global or system git config: a CI host often has no git identity, and a developer's
      // (identity, commit.gpgsign, hooksPath) must not make the suite pass or fail. Tests set what they need.
      env: {
        ...process.env,
        NO_COLOR: '1',
        SLUICE_TEST_RUN: marker,
        XDG_STATE_HOME: stateHome,
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_CONFIG_NOSYSTEM: '1',
        ...env,
      },
    });
    running = child;
    let out = '';
    let partial = '';
    child.stdout.on('data', (d) => {
      if (capture) out += d;
      if (!showLine) return void process.stdout.write(d);
      const lines = (partial + d).split('\n');
      partial = lines.pop();
      for (const line of lines) if (showLine(line)) process.stdout.write(`${line}\n`);
    });
    child.stderr.on('data', (d) => {
      if (capture) out += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => {
      running = undefined;
      if (showLine && partial && showLine(partial)) process.stdout.write(`${partial}\n`);
      process.stdout.write(`=== ${label}: exit ${code} in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
      resolve({ code, out });
    });
  });
}

/** A step that is one check (typecheck, build): counts as one test. */
async function step(label, command, args) {
  const { code } = await run(label, command, args);
  if (code === 0) passed++;
  else failed++;
}

/** Fails the suite for every process a leg left running, after killing them. */
async function noProcessLeftBehind(label) {
  const left = await reapLeftovers(marker);
  if (left.length === 0) return;
  failed += left.length;
  process.stdout.write(
    `=== ${label}: ${left.length} process(es) left running, killed now:\n${left.map((p) => `  ${p.pid} ${p.cmd.slice(0, 200)}`).join('\n')}\n`,
  );
}

async function tapLeg() {
  const legStarted = Date.now();
  // The plain TAP reporter: the terse one draws with cursor escapes (which CI log viewers drop) and,
  // rendering through Ink, can end without its summary. Top-level lines only: one per test file.
  const { code, out } = await run('tap (node)', bin('tap'), ['--reporter=tap', ...only], {
    capture: true,
    // dist/ is fresh: bundled above (or by the stale check); the tests start it without checking again.
    env: { SLUICE_TEST_BUNDLE_CHECKED: '1' },
    showLine: (line) => /^(not )?ok \d+ - |^# (?!Subtest)/.test(line),
  });
  await noProcessLeftBehind('tap (node)');
  const failures = tapFailures(legStarted);
  if (failures.length > 0) {
    process.stdout.write(`\n=== tap (node): failing tests, from .tap/test-results\n`);
    for (const { file, lines } of failures) process.stdout.write(`FAILED ${file}\n${lines.map((l) => `  ${l}`).join('\n')}\n`);
  }
  const m = /# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?(?:, skip: (\d+))?(?:, todo: (\d+))?/.exec(out);
  if (!m) {
    process.stdout.write(`=== tap (node): no summary line from tap (exit ${code}); counting ${Math.max(1, failures.length)} failure(s)\n`);
    failed += Math.max(1, failures.length);
    return;
  }
  const total = Number(m[1]);
  const pass = Number(m[2]);
  // A test that skips says why in its output (a reference missing from a user's clone); it is neither.
  const skip = Number(m[4] ?? 0) + Number(m[5] ?? 0);
  passed += pass;
  skipped += skip;
  failed += total - pass - skip;
  if (code !== 0 && total === pass + skip) failed++;
}

async function denoLeg() {
  const { code, out } = await run('deno test (core)', deno, ['test', '--allow-env', '--allow-read', '--allow-write', '--allow-run', 'test/core/'], {
    capture: true,
  });
  await noProcessLeftBehind('deno test (core)');
  const m = /(ok|FAILED) \| (\d+) passed(?: \((\d+) steps\))? \| (\d+) failed(?: \((\d+) steps\))?/.exec(out);
  if (!m) return void failed++;
  passed += Number(m[3] ?? m[2]);
  failed += Number(m[5] ?? m[4]);
  if (code !== 0 && Number(m[5] ?? m[4]) === 0) failed++;
}

if (only.length === 0) {
  await step('format (biome; `npm run format` fixes it)', bin('biome'), ['format', '.']);
  await step('typecheck', bin('tsc'), ['--noEmit']);
  await step('typecheck core without Node types', bin('tsc'), ['--noEmit', '-p', 'core/tsconfig.json']);
  await step('bundle', process.execPath, ['scripts/build.mjs']);
  await step('deno check core', deno, ['check', 'core/index.ts']);
  await step('bundle under deno', deno, ['run', '-A', 'dist/sluice.mjs', 'plugins', '--json']);
}
// npm ci installs tap's runner built with its default plugins (TypeScript included); rebuild it
// for .taprc's plugin list, or the first run after a clean install loads the broken TS plugin.
await step('tap build', bin('tap'), ['build']);
// The tests start the bundled CLI (dist/sluice.mjs): a run of chosen files bundles it first when a source changed.
if (only.length > 0) await step('bundle (when stale)', process.execPath, ['scripts/test/fresh-bundle.mjs']);
await tapLeg();
if (only.length === 0) await denoLeg();

const seconds = Math.round((Date.now() - suiteStarted) / 1000);
console.log(`\nsuite time ${seconds} s${seconds > BUDGET_S ? ` (over the ${BUDGET_S} s budget for an idle 2-core machine)` : ''}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed === 0 ? 0 : 1);
