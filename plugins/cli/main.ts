#!/usr/bin/env node
/**
 * sluice's entry point. Kept tiny: `--version` answers without loading anything else, and every
 * command loads only the modules it uses (the bundle splits on the dynamic imports below).
 */
import { sluiceVersion } from './version.ts';

const argv = process.argv.slice(2);
if (argv.length === 1 && (argv[0] === '--version' || argv[0] === '-V')) {
  process.stdout.write(`${sluiceVersion}\n`);
} else {
  const { runCli } = await import('./run-cli.ts');
  const code = await runCli(argv);
  // Let stdout drain before exiting, so piped --json output is never cut short.
  process.stdout.write('', () => process.exit(code));
}
