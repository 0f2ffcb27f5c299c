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
      (e) => e.a !== e.b && e.b !== 'core' && e.to !== 'package.json' && !e.a.startsWith('api') && e.a !== 'plugins/cli' && !isPublicFace(e.to, e.b),
    );
    assert.equal(show(inward), '');
  });

  it("README.md's architecture chart is the one the imports draw", () => {
    const readme = readFileSync(`${root}/README.md`, 'utf8');
    assert.equal(readmeWithChart(readme, architectureChart(root)), readme, 'run node scripts/architecture.mjs --write');
  });
});
