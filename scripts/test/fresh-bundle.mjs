#!/usr/bin/env node
// dist/ as the tests run it: rebuilt (`node scripts/build.mjs`) only when missing or older than a
// source file, one build at a time. Tests start the bundled CLI with plain node (a fraction of the CPU
// node+tsx spends compiling TypeScript each start); `node scripts/test.mjs FILE` and every test helper
// that starts the CLI call this first, so a test never runs yesterday's bundle.
// Run directly (under the lock), it checks again and builds when still stale.
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));
export const bundledCli = join(root, 'dist', 'sluice.mjs');
const SOURCES = ['api', 'core', 'plugins', 'gates', 'delegates', 'skills'];
/** package.json and the build's scripts (scripts/*.mjs: build.mjs and the modules it imports). */
const BUILD_FILES = [
  'package.json',
  ...readdirSync(join(root, 'scripts'))
    .filter((f) => f.endsWith('.mjs'))
    .map((f) => `scripts/${f}`),
];

/** True when dist/sluice.mjs is newer than every file it is built from. */
export function bundleIsFresh() {
  if (!existsSync(bundledCli)) return false;
  const built = statSync(bundledCli).mtimeMs;
  const newer = (dir) =>
    readdirSync(dir, { withFileTypes: true }).some((e) => {
      const path = join(dir, e.name);
      return e.isDirectory() ? newer(path) : statSync(path).mtimeMs > built;
    });
  const file = (f) => existsSync(join(root, f)) && statSync(join(root, f)).mtimeMs > built;
  return !SOURCES.some((d) => existsSync(join(root, d)) && newer(join(root, d))) && !BUILD_FILES.some(file);
}

/**
 * Returns dist/sluice.mjs, built first when stale. Two test files finding it stale at once build it
 * once: the second waits on the lock, then finds it fresh (a build removes dist/ first, so a second
 * build would pull it from under the first file's running processes).
 */
export function freshBundle() {
  // Under scripts/test.mjs the bundle was checked (or built) right before the tests started: a file a
  // test writes into the sources mid-run must not rebuild dist/ under the other test files.
  if (process.env.SLUICE_TEST_BUNDLE_CHECKED === '1' && existsSync(bundledCli)) return bundledCli;
  if (!bundleIsFresh()) {
    const lock = join(tmpdir(), `sluice-build-${createHash('sha256').update(root).digest('hex').slice(0, 16)}.lock`);
    execFileSync('flock', [lock, process.execPath, fileURLToPath(import.meta.url)], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  }
  return bundledCli;
}

if (process.argv[1] === fileURLToPath(import.meta.url) && !bundleIsFresh()) {
  const built = spawnSync(process.execPath, [join(root, 'scripts/build.mjs')], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  process.exit(built.status ?? 1);
}
