import { build } from 'esbuild';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * An installed copy of the package's API entry in `dir/node_modules/sluice`, as npm would lay it out:
 * package.json's exports, and `api/index.ts` bundled with the settings of scripts/build.mjs (so a
 * plugin gets its own copy of core, as a real install gives it).
 */
export async function installApiCopy(dir: string): Promise<void> {
  const pkg = JSON.parse(await readFile('package.json', 'utf8')) as { exports: Record<string, { default: string }> };
  const installed = join(dir, 'node_modules', 'sluice');
  await mkdir(installed, { recursive: true });
  await writeFile(join(installed, 'package.json'), JSON.stringify({ name: 'sluice', type: 'module', exports: pkg.exports }));
  await build({
    entryPoints: ['api/index.ts'],
    outfile: join(installed, pkg.exports['.'].default),
    bundle: true,
    format: 'esm',
    platform: 'node',
    logLevel: 'error',
    banner: { js: "import{createRequire}from'node:module';const require=createRequire(import.meta.url);" },
  });
}
