#!/usr/bin/env node
// A fake AI CLI for `sluice tune` tests, run through the `shell` delegate (prompt on stdin). Unlike
// the script backend it can do what a real agent can: write anywhere, add symlinks. What it does
// comes from the JSON file FAKE_TUNE_PLAN: { "<role>-<iteration>" | "<role>": step | step[] }, a list
// used one step per call (the last repeating); a step is
// { "write": {path: text}, "append": {path: text}, "symlink": {path: target}, "sleepMs": n, "answer": "text", "exit": n }.
// Relative paths are taken from the working directory; `$HOME/` and `$PROJECT/` at the start name HOME
// and the project (FAKE_TUNE_PROJECT).
// Every prompt is saved as FAKE_TUNE_RECORD/<role>-<iteration>-<n>.txt.
import { appendFileSync, existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const chunks = [];
for await (const c of process.stdin) chunks.push(c);
const prompt = Buffer.concat(chunks).toString('utf8');
const head = /role=(\w+) iteration=(\d+)/.exec(prompt) ?? [];
const [role, iteration] = [head[1] ?? 'unknown', head[2] ?? '0'];
const record = process.env.FAKE_TUNE_RECORD;
let call = 1;
if (record) {
  mkdirSync(record, { recursive: true });
  while (existsSync(join(record, `${role}-${iteration}-${call}.txt`))) call++;
  writeFileSync(join(record, `${role}-${iteration}-${call}.txt`), prompt);
}
const plan = JSON.parse(readFileSync(process.env.FAKE_TUNE_PLAN, 'utf8'));
const entry = plan[`${role}-${iteration}`] ?? plan[role] ?? { answer: `fake ${role} ${iteration}` };
const steps = Array.isArray(entry) ? entry : [entry];
const step = steps[Math.min(call, steps.length) - 1];
const where = (p) =>
  p.startsWith('$HOME/') ? join(process.env.HOME, p.slice(6)) : p.startsWith('$PROJECT/') ? join(process.env.FAKE_TUNE_PROJECT, p.slice(9)) : resolve(p);
for (const [path, text] of Object.entries(step.write ?? {})) {
  mkdirSync(dirname(where(path)), { recursive: true });
  writeFileSync(where(path), text);
}
for (const [path, text] of Object.entries(step.append ?? {})) appendFileSync(where(path), text);
for (const [path, target] of Object.entries(step.symlink ?? {})) {
  mkdirSync(dirname(where(path)), { recursive: true });
  symlinkSync(target, where(path));
}
if (step.sleepMs) await new Promise((r) => setTimeout(r, step.sleepMs));
process.stdout.write(step.answer ?? `fake ${role} ${iteration} done`);
process.exitCode = step.exit ?? 0;
