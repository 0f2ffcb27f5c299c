#!/usr/bin/env node
// The `sluice` command. A published package ships dist/ (built by `prepack`); a git checkout has
// no dist/ after `npm ci`, so the first run builds it (esbuild is installed there as a dev dependency).
// CommonJS on purpose: Claude Code runs `sluice guard` before every tool call, and a CommonJS entry
// reaches the guard's own CommonJS bundle without starting Node's ESM loader (several ms a call).
'use strict';
const { existsSync } = require('node:fs');
const { join } = require('node:path');

const dist = join(__dirname, '..', 'dist');
const guard = process.argv.length === 3 && process.argv[2] === 'guard' ? join(dist, 'guard.cjs') : undefined;
if (guard && existsSync(guard)) {
  require(guard)
    .guardMain()
    .then((code) => {
      process.exitCode = code;
    });
} else {
  const cli = join(dist, 'sluice.mjs');
  if (!existsSync(cli)) {
    const build = join(__dirname, '..', 'scripts', 'build.mjs');
    if (!existsSync(build)) {
      process.stderr.write('sluice: dist/sluice.mjs is missing from this install; reinstall the package\n');
      process.exit(2);
    }
    process.stderr.write('sluice: first run in a checkout, building dist/ ...\n');
    const built = require('node:child_process').spawnSync(process.execPath, [build], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (built.status !== 0) process.exit(2);
  }
  const loader = join(dist, 'cli-loader.cjs');
  const version = process.argv.length === 3 && (process.argv[2] === '--version' || process.argv[2] === '-V');
  // dist/sluice.mjs does the same through the ES module loader; from here, without starting it.
  if (!version && existsSync(loader)) {
    require(loader)
      .runSluice(process.argv.slice(2))
      // Let stdout drain before exiting, so piped --json output is never cut short.
      .then((code) => process.stdout.write('', () => process.exit(code)));
  } else import(require('node:url').pathToFileURL(cli).href);
}
