import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createMemoryHost } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** Backtracking patterns (lookaround, backreferences) from a script file run through the Host, which can stop a runaway one. */
describe('Host.execRegExp', () => {
  it('both hosts give RegExp.exec groups and named groups, null for no match', async () => {
    for (const host of [createNodeHost(), createMemoryHost()]) {
      assert.deepEqual(await host.execRegExp('(?<word>\\w+)(?= now)', 's', 'do it now', 5000), { groups: ['it', 'it'], named: { word: 'it' } });
      assert.deepEqual(await host.execRegExp('(x)\\1', 'g', 'axxb', 5000), { groups: ['xx', 'x'], named: {} });
      assert.equal(await host.execRegExp('(?<!a)b', '', 'ab', 5000), null);
    }
  });

  it('the Node host stops a pattern that backtracks without end and says so', async () => {
    assert.equal(await createNodeHost().execRegExp('^(a+)+(?!c)$', '', `${'a'.repeat(40)}b`, 200), 'timeout');
  });
});
