#!/usr/bin/env node
// Declarations for the package's public entry points (tsconfig.types.json → dist/types), with
// relative `.ts` specifiers rewritten to `.js`: the source imports `.ts` files (tsx, Deno and
// esbuild want that), while a consumer's TypeScript resolves `./x.js` to the shipped `./x.d.ts`.
import { spawnSync } from 'node:child_process';
import { readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const outDir = join(root, 'dist/types');
await rm(outDir, { recursive: true, force: true });
const tsc = spawnSync(process.execPath, [join(root, 'node_modules/typescript/bin/tsc'), '-p', join(root, 'tsconfig.types.json')], { stdio: 'inherit' });
if (tsc.status !== 0) process.exit(tsc.status ?? 1);

// `from './a.ts'`, `import('./a.ts')`, `declare module '../b.ts'`: only relative specifiers.
const relativeTs = /((?:from|import\(|declare module)\s*['"])(\.{1,2}\/[^'"]+?)\.ts(['"])/g;
for (const entry of await readdir(outDir, { recursive: true, withFileTypes: true })) {
  if (!entry.isFile() || !entry.name.endsWith('.d.ts')) continue;
  const file = join(entry.parentPath, entry.name);
  const text = await readFile(file, 'utf8');
  const fixed = text.replace(relativeTs, '$1$2.js$3');
  if (fixed !== text) await writeFile(file, fixed);
}
