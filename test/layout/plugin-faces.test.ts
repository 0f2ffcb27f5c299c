import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * plugins/ holds plugins only (DESIGN.md, Layout): each folder's public face, its index.ts, exports a
 * plugin made with definePlugin, in the file itself or re-exported from one of the folder's files.
 * Read from the text, not by loading every plugin.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));
const plugins = join(root, 'plugins');

/** The names index.ts exports that are made by definePlugin (`export const x = definePlugin(` here or in the file it re-exports x from). */
function pluginExports(dir: string): string[] {
  const face = readFileSync(join(dir, 'index.ts'), 'utf8');
  const defined = (text: string) => [...text.matchAll(/export const (\w+)\s*(?::[^=]+)?=\s*definePlugin\(/g)].map((m) => m[1]);
  const found = defined(face);
  for (const m of face.matchAll(/export\s*\{([^}]*)\}\s*from\s*'\.\/([^']+)'/g)) {
    const file = join(dir, m[2]);
    if (!existsSync(file)) continue;
    const names = m[1].split(',').map((n) => n.trim().split(/\s+as\s+/)[0]);
    found.push(...defined(readFileSync(file, 'utf8')).filter((n) => names.includes(n)));
  }
  return found;
}

describe('layout: plugins/ holds only plugins', () => {
  const folders = readdirSync(plugins, { withFileTypes: true }).filter((e) => e.isDirectory());

  it('every folder in plugins/ has an index.ts that exports a definePlugin face', () => {
    const missing = folders.filter((f) => !existsSync(join(plugins, f.name, 'index.ts')) || pluginExports(join(plugins, f.name)).length === 0);
    assert.deepEqual(
      missing.map((f) => `plugins/${f.name}`),
      [],
      'give the folder an index.ts exporting definePlugin({ name, setup }), or move it out of plugins/',
    );
  });

  it('nothing but folders sits in plugins/', () => {
    assert.deepEqual(
      readdirSync(plugins, { withFileTypes: true })
        .filter((e) => !e.isDirectory())
        .map((e) => e.name),
      [],
    );
  });

  it('the check sees a face made here or re-exported, and not a bare re-export of something else', () => {
    assert.deepEqual(pluginExports(join(plugins, 'host-node')), ['hostNodePlugin']);
    assert.deepEqual(pluginExports(join(plugins, 'claude-code')), ['claudeCodePlugin']);
    assert.ok(!pluginExports(join(plugins, 'host-node')).includes('createNodeHost'));
  });
});
