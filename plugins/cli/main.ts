#!/usr/bin/env node
/**
 * sluice's entry point. Kept tiny: `--version` answers without loading anything else, and every
 * command loads only the modules it uses (the bundle splits on the dynamic imports below).
 */
// No static imports: each path loads only its own code (the guard runs before every tool call).
export {};
const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  const { sluiceVersion } = await import('../../core/version.ts');
  process.stdout.write(`${sluiceVersion}\n`);
} else if (argv.length === 1 && argv[0] === 'guard') {
  // Claude Code runs the guard before every tool call: it loads neither the kernel nor the config.
  const { guardMain } = await import('../guard/guard-main.ts');
  process.exitCode = await guardMain();
} else {
  const { runSluice } = await import('./cli-loader.ts');
  const code = await runSluice(argv);
  // Let stdout drain before exiting, so piped --json output is never cut short.
  process.stdout.write('', () => process.exit(code));
}
