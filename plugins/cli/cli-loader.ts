/**
 * Runs one command line (run-cli.ts) and returns its exit code. The CLI's build (scripts/build.mjs)
 * puts cached-cli-loader.ts in this file's place: the same runner from dist/sluice-cli.cjs, loaded
 * through V8's code cache.
 */
export async function runSluice(argv: readonly string[]): Promise<number> {
  const { runCli } = await import('./run-cli.ts');
  return runCli(argv);
}
