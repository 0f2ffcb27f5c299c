import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { createMemoryHost, HostTooLargeError } from '../../core/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** `sluice delegate ... -` reads its prompt from stdin through the Host, bounded. */
describe('Host.readStdin', () => {
  it('the memory host gives the stdin it was set up with, and refuses more than the limit', async () => {
    const host = createMemoryHost({ stdin: 'a prompt é' });
    assert.equal(new TextDecoder().decode(await host.readStdin(100)), 'a prompt é');
    await assert.rejects(host.readStdin(5), HostTooLargeError);
    assert.equal((await createMemoryHost().readStdin(1)).byteLength, 0);
  });

  it('the Node host reads a pipe to its end and stops once it passes the limit', () => {
    const script = `import { createNodeHost } from './plugins/host-node/index.ts';
const host = createNodeHost();
const limit = Number(process.env.LIMIT);
host.readStdin(limit).then((d) => console.log('read', d.byteLength), (e) => console.log(e.name));`;
    const run = (input: string, limit: number) =>
      spawnSync(process.execPath, ['--import=tsx', '--input-type=module', '-e', script], {
        cwd: root,
        env: { ...process.env, LIMIT: String(limit) },
        input,
        encoding: 'utf8',
        timeout: 60_000,
      }).stdout.trim();
    assert.equal(run('x'.repeat(100_000), 200_000), 'read 100000');
    assert.equal(run('x'.repeat(100_000), 1000), 'HostTooLargeError');
  });
});
