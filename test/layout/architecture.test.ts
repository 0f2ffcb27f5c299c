import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
// @ts-expect-error a plain .mjs script without declarations
import { architectureChart, importEdges, readmeWithChart, unitOf } from '../../scripts/architecture.mjs';

const root = fileURLToPath(new URL('../..', import.meta.url));
const edges = (importEdges(root) as { from: string; to: string }[]).map((e) => ({ ...e, a: unitOf(e.from) as string, b: unitOf(e.to) as string }));
const show = (list: { from: string; to: string }[]) => list.map((e) => `${e.from} -> ${e.to}`).join('\n');

/** A unit's public face: the plugin's index.ts (`gates/index.ts`, `plugins/sdlc/index.ts`, `delegates/cli-process/index.ts`). */
const isPublicFace = (to: string, unit: string) => to === `${unit}/index.ts`;

/**
 * The Node host's leaf modules (they import nothing but Node), which the guard's process entry takes
 * straight from their files: its CommonJS bundle runs before every tool call without the kernel or a
 * Host, and host-node's index.ts would bring in both.
 */
const HOST_LEAVES = ['plugins/host-node/code-cache.ts', 'plugins/host-node/built-beside.ts'];

/** Imports point down: core knows no plugin, plugins meet each other only through their index.ts, nothing but the CLI's own files knows the CLI. */
describe('layout', () => {
  it('core imports nothing outside core (but package.json for its version)', () => {
    assert.equal(show(edges.filter((e) => e.a === 'core' && e.b !== 'core' && e.to !== 'package.json')), '');
  });

  it('no plugin, gate or delegate imports the CLI', () => {
    assert.equal(show(edges.filter((e) => e.b === 'plugins/cli' && e.a !== 'plugins/cli' && e.a !== 'api')), '');
  });

  it("no file under plugins/, gates/ or delegates/ imports another plugin's internals", () => {
    const inward = edges.filter(
      (e) =>
        e.a !== e.b &&
        e.b !== 'core' &&
        e.to !== 'package.json' &&
        !e.a.startsWith('api') &&
        e.a !== 'plugins/cli' &&
        !isPublicFace(e.to, e.b) &&
        !(e.a === 'plugins/guard' && HOST_LEAVES.includes(e.to)),
    );
    assert.equal(show(inward), '');
  });

  it("the host's leaf modules the guard takes import nothing of the project", () => {
    assert.equal(show(edges.filter((e) => HOST_LEAVES.includes(e.from))), '');
  });

  it("README.md's architecture chart is the one the imports draw", () => {
    const readme = readFileSync(`${root}/README.md`, 'utf8');
    assert.equal(readmeWithChart(readme, architectureChart(root)), readme, 'run node scripts/architecture.mjs --write');
  });
});
