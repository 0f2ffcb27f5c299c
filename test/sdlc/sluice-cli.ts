import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runProcess, type CliRun } from '../helpers/run-cli.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
let bundle: Promise<string> | undefined;

/**
 * The CLI bundled the way scripts/build.mjs bundles dist/ (esbuild, code splitting), built once per
 * test process inside the package folder so bundled assets resolve. Plain node starts it in a
 * fraction of node+tsx's time, which matters for tests that start many processes.
 */
export function sluiceBundle(): Promise<string> {
  bundle ??= (async () => {
    // `node scripts/test.mjs` bundles dist/ right before the tests: reuse it when nothing changed since.
    const dist = join(root, 'dist', 'sluice.mjs');
    if (existsSync(dist) && statSync(dist).mtimeMs > newestSource()) return dist;
    const outdir = join(root, 'node_modules', '.cache', 'sluice-sdlc-tests', `${process.pid}-${Date.now()}`);
    await mkdir(outdir, { recursive: true });
    process.on('exit', () => rmSync(outdir, { recursive: true, force: true }));
    const { build } = await import('esbuild');
    await build({
      absWorkingDir: root,
      entryPoints: { sluice: 'plugins/cli/main.ts' },
      outdir,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'node',
      target: 'node20',
      logLevel: 'error',
      banner: { js: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);" },
    });
    return join(outdir, 'sluice.mjs');
  })();
  return bundle;
}

/** `sluice --cwd DIR ARGS` as a child process of the bundled CLI. */
export async function runSluice(dir: string, args: string[], env: Record<string, string> = {}): Promise<CliRun> {
  const entry = await sluiceBundle();
  return runProcess(process.execPath, [entry, '--cwd', dir, ...args], { env: { ...process.env, NO_COLOR: '1', ...env } });
}

/** Newest modification time of the code the bundle is made of. */
function newestSource(): number {
  let newest = statSync(join(root, 'package.json')).mtimeMs;
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/\.(ts|mjs|js|ya?ml|md|json)$/.test(e.name)) newest = Math.max(newest, statSync(p).mtimeMs);
    }
  };
  for (const dir of ['core', 'plugins', 'gates', 'delegates', 'skills']) if (existsSync(join(root, dir))) walk(join(root, dir));
  return newest;
}
