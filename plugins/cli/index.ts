/**
 * sluice:cli's public face: the CLI's own commands as a plugin, and the command runner the process
 * entry points (main.ts, bin/sluice.cjs through dist/cli-loader.cjs) call.
 */
export { cliPlugin } from './cli-plugin.ts';
export { runSluice } from './cli-loader.ts';
