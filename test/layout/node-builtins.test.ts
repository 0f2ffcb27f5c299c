import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { join, relative, sep } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain .mjs script without declarations
import { importEdges } from '../../scripts/architecture.mjs';

/**
 * Workflows, gates and delegates reach the outside world only through the Host port (core/host),
 * so they run on any host (the in-memory one in tests, Deno). The Node host, the CLI and the other
 * process plumbing are where Node lives; everything else that imports a Node built-in fails here.
 */
const root = fileURLToPath(new URL('../..', import.meta.url));

/** Units whose job is to be Node: they are the host, the process entry points and their transports. */
const NODE_UNITS = [
  'plugins/host-node', // the Host port's Node implementation, and the V8 code cache the CommonJS bundles run through (node:vm)
  'plugins/cli', // the process: argv, stdio, signals, exit codes, the bin's workers
  'plugins/queue-redis', // a queue transport (sockets through ioredis), chosen by the CLI, not a workflow
  // Claude Code's PreToolUse hook: its own CommonJS bundle (dist/guard.cjs), run before every tool
  // call, so it starts without the kernel or the Host and judges paths with synchronous fs calls.
  'plugins/guard',
  // `sluice mcp`: a process entry point like the CLI, serving the MCP protocol on its stdin and stdout.
  'plugins/mcp',
];

const builtins = new Set(builtinModules.flatMap((m) => [m, `node:${m}`]));
const SPECIFIER = /(?:\bfrom|\bimport\(?|\brequire\()\s*['"]([^'"]+)['"]/g;

/** Node's own globals: the process, its buffers, CommonJS paths. (`require(` is left out: `model.require(id)` is a method.) */
const NODE_GLOBAL = /(?<![\w.$-])process\.|\bBuffer\b|\b__dirname\b|\b__filename\b|\bsetImmediate\b|\bNodeJS\./g;
/** Comments may name Node; code may not. A `//` inside a string cuts the rest of its line from the check, no more. */
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');

/** Each TypeScript file under the workflow, gate and delegate folders, with the Node built-ins it imports and the Node globals it uses. */
function nodeImports(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const walk = (dir: string) => {
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const path = join(dir, e.name);
      const rel = relative(root, path).split(sep).join('/');
      if (e.isDirectory()) {
        if (!NODE_UNITS.includes(rel)) walk(path);
      } else if (/\.[cm]?ts$/.test(e.name)) {
        const text = readFileSync(path, 'utf8');
        const found = [
          ...[...text.matchAll(SPECIFIER)].map((m) => m[1]).filter((s) => builtins.has(s)),
          ...[...withoutComments(text).matchAll(NODE_GLOBAL)].map((m) => m[0]),
        ];
        if (found.length > 0) out.set(rel, [...new Set(found)]);
      }
    }
  };
  for (const top of ['plugins', 'gates', 'delegates']) walk(join(root, top));
  return out;
}

describe('layout: Node through the Host', () => {
  const found = nodeImports();

  // No allow-list: every workflow, gate and delegate file goes through the Host. A new need is a new Host capability.
  it('no workflow, gate or delegate file imports a Node built-in or uses a Node global', () => {
    const offenders = [...found].map(([file, mods]) => `${file}: ${mods.join(', ')}`);
    assert.equal(offenders.join('\n'), '', 'use the Host port (core/host) instead; add a capability there if it lacks one');
  });

  it('nor the Node host itself: only the CLI chooses the host', () => {
    const edges = (importEdges(root) as { from: string; to: string }[]).filter((e) => e.to.startsWith('plugins/host-node/'));
    const users = edges.filter((e) => !NODE_UNITS.some((u) => e.from.startsWith(`${u}/`)));
    assert.equal(users.map((e) => `${e.from} -> ${e.to}`).join('\n'), '');
  });

  it('the check sees imports in every form', () => {
    const forms = ["import { x } from 'node:fs';", "import('node:os')", "require('crypto')", "export { y } from 'path';"];
    for (const text of forms) assert.equal([...text.matchAll(SPECIFIER)].filter((m) => builtins.has(m[1])).length, 1, text);
    assert.equal([...`import { z } from 'pathe';`.matchAll(SPECIFIER)].filter((m) => builtins.has(m[1])).length, 0);
    const globals = (code: string) => [...withoutComments(code).matchAll(NODE_GLOBAL)].map((m) => m[0]);
    assert.deepEqual(globals('const a = process.env.HOME;\nconst b: Buffer[] = [];\nnew URL(x, __dirname);'), ['process.', 'Buffer', '__dirname']);
    assert.deepEqual(globals("// process.exit() in a comment\n/** Buffer */\nimport { x } from './run-cli-process.ts';\nmodel.require(id);"), []);
  });
});
