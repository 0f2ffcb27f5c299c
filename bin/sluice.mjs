#!/usr/bin/env node
// The `sluice` command. A published package ships dist/ (built by `prepack`); a git checkout has
// no dist/ after `npm ci`, so the first run builds it (esbuild is installed there as a dev dependency).
import { existsSync } from 'node:fs';

// Claude Code runs `sluice guard` before every tool call: go straight to its self-contained bundle.
const guard = process.argv.length === 3 && process.argv[2] === 'guard' ? new URL('../dist/guard.mjs', import.meta.url) : undefined;
if (guard && existsSync(guard)) {
  process.exitCode = await (await import(guard.href)).guardMain();
} else {
  const cli = new URL('../dist/sluice.mjs', import.meta.url);
  if (!existsSync(cli)) {
    const build = new URL('../scripts/build.mjs', import.meta.url);
    if (!existsSync(build)) {
      process.stderr.write('sluice: dist/sluice.mjs is missing from this install; reinstall the package\n');
      process.exit(2);
    }
    const { spawnSync } = await import('node:child_process');
    const { fileURLToPath } = await import('node:url');
    process.stderr.write('sluice: first run in a checkout, building dist/ ...\n');
    const built = spawnSync(process.execPath, [fileURLToPath(build)], { stdio: ['ignore', 'inherit', 'inherit'] });
    if (built.status !== 0) process.exit(2);
  }
  await import(cli.href);
}
