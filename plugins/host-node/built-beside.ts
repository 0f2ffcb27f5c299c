import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * The file `name` that the build (scripts/build.mjs) wrote beside the running bundle, or undefined
 * when this code runs from source. Bundled code sits in dist/ (entry points, the CommonJS files) or
 * dist/chunks/ (the ES module bundle's shared chunks); the built files are in dist/. How sluice
 * chooses at run time between its built CommonJS files (run through V8's code cache) and the plain
 * source import, instead of the build putting one module in another's place.
 */
export function builtBeside(moduleUrl: string, name: string): string | undefined {
  if (moduleUrl.endsWith('.ts')) return undefined;
  const file = fileURLToPath(new URL(/\/chunks\/[^/]*$/.test(moduleUrl) ? `../${name}` : `./${name}`, moduleUrl));
  return existsSync(file) ? file : undefined;
}
