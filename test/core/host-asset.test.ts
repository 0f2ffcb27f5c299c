import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** Workflows find the files sluice ships (registry, packs, prompts) through the Host, never through the Node host's own helper. */
describe('Host.asset', () => {
  it('the Node host names the files of this sluice install', async () => {
    const host = createNodeHost();
    assert.match(await host.readText(host.asset('plugins', 'sdlc', 'assets', 'phase-registry.yaml')), /phases:/);
    assert.match(await host.readText(host.asset('skills', 'lifecycle', 'plan.md')), /^---/);
  });

  it('a memory host serves them from the folder it was given, so workflows run without a disk', async () => {
    const host = createMemoryHost({ assetRoot: '/opt/sluice', files: { '/opt/sluice/skills/skill-tune/execute.md': '---\nrole: execute\n---\nbody\n' } });
    assert.equal(host.asset('skills', 'skill-tune', 'execute.md'), '/opt/sluice/skills/skill-tune/execute.md');
    assert.equal(await host.readText(host.asset('skills', 'skill-tune', 'execute.md')), '---\nrole: execute\n---\nbody\n');
    assert.equal(createMemoryHost().asset('a', 'b.yaml'), '/sluice/a/b.yaml');
  });
});
