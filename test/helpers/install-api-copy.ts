import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * An installed copy of the package's API entries in `dir/node_modules/sluice`, as npm would lay it out:
 * package.json's exports, and each `api/*.ts` entry bundled with the settings of scripts/build.mjs (so a
 * plugin gets its own copy of core, as a real install gives it).
 */
export async function installApiCopy(dir: string): Promise<void> {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { exports: Record<string, { default: string }> };
  const installed = join(dir, 'node_modules', 'sluice');
  await mkdir(installed, { recursive: true });
  await writeFile(join(installed, 'package.json'), JSON.stringify({ name: 'sluice', type: 'module', exports: pkg.exports }));
  // Each entry point (`sluice`, `sluice/kernel`, `sluice/sdlc`...) from its api/ file, as the package ships them.
  const entries = Object.entries(pkg.exports).filter(([key, target]) => key !== './package.json' && typeof target === 'object');
  for (const [key, target] of entries) {
    await build({
      entryPoints: [key === '.' ? 'api/index.ts' : `api/${key.slice(2)}.ts`],
      outfile: join(installed, target.default),
      bundle: true,
      format: 'esm',
      platform: 'node',
      logLevel: 'error',
      banner: { js: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);" },
    });
  }
}
