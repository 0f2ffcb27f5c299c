#!/usr/bin/env node
// The whole test suite, as CI runs it: typecheck (all code, and core/ without Node types),
// bundle, the tap suite under Node, the core suite and the bundle under Deno.
// Ends with one line: `N passed, N failed` (tests counted across every leg).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';

const bin = (name) => `node_modules/.bin/${name}`;
const deno = existsSync(bin('deno')) ? bin('deno') : 'node_modules/@deno/linux-x64-glibc/deno';
const only = process.argv.slice(2);
let passed = 0;
let failed = 0;

function run(label, command, args, { capture = false, env = {} } = {}) {
  return new Promise((resolve) => {
    const started = Date.now();
    process.stdout.write(`\n=== ${label}: ${command} ${args.join(' ')}\n`);
    const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, NO_COLOR: '1', ...env } });
    let out = '';
    child.stdout.on('data', (d) => {
      if (capture) out += d;
      process.stdout.write(d);
    });
    child.stderr.on('data', (d) => {
      if (capture) out += d;
      process.stderr.write(d);
    });
    child.on('close', (code) => {
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

async function tapLeg() {
  const { code, out } = await run('tap (node)', bin('tap'), ['--reporter=terse', ...only], { capture: true });
  const m = /# \{ total: (\d+), pass: (\d+)(?:, fail: (\d+))?/.exec(out);
  if (!m) return void failed++;
  const total = Number(m[1]);
  const pass = Number(m[2]);
  passed += pass;
  failed += total - pass;
  if (code !== 0 && total === pass) failed++;
}

async function denoLeg() {
  const { code, out } = await run('deno test (core)', deno, ['test', '--allow-env', '--allow-read', '--allow-write', '--allow-run', 'test/core/'], { capture: true });
  const m = /(ok|FAILED) \| (\d+) passed(?: \((\d+) steps\))? \| (\d+) failed(?: \((\d+) steps\))?/.exec(out);
  if (!m) return void failed++;
  passed += Number(m[3] ?? m[2]);
  failed += Number(m[5] ?? m[4]);
  if (code !== 0 && Number(m[5] ?? m[4]) === 0) failed++;
}

if (only.length === 0) {
  await step('typecheck', bin('tsc'), ['--noEmit']);
  await step('typecheck core without Node types', bin('tsc'), ['--noEmit', '-p', 'core/tsconfig.json']);
  await step('bundle', process.execPath, ['scripts/build.mjs']);
  await step('deno check core', deno, ['check', 'core/index.ts']);
  await step('bundle under deno', deno, ['run', '-A', 'dist/sluice.mjs', 'plugins', '--json']);
}
// npm ci installs tap's runner built with its default plugins (TypeScript included); rebuild it
// for .taprc's plugin list, or the first run after a clean install loads the broken TS plugin.
await step('tap build', bin('tap'), ['build']);
await tapLeg();
if (only.length === 0) await denoLeg();

console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed === 0 ? 0 : 1);
