import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainNext, linkHash, scanChain } from '../../core/store/journal-chain.ts';
import { lineLinkHash } from '../../core/store/line-link-hash.ts';

/** Values with what canonical JSON must get right: index keys, duplicates, escapes, numbers, non-ASCII. */
function value(seed: { n: number }, depth: number): unknown {
  const r = (seed.n = (seed.n * 1103515245 + 12345) % 2147483648) / 2147483648;
  if (depth > 3 || r < 0.3) return [1, -0, 1.5e300, 'a"\\u00e9\n', null, true, false, 'zé😀', 12345678901234567890][Math.floor(r * 30) % 9];
  if (r < 0.6) return Array.from({ length: Math.floor(r * 10) % 4 }, () => value(seed, depth + 1));
  const o: Record<string, unknown> = {};
  for (let i = 0; i < 4; i++) o[['b', 'a', '10', '2', '__proto__', 'é', 'A', '007'][Math.floor(value.length * r * 97 + i * 13) % 8]] = value(seed, depth + 1);
  return o;
}

describe('a journal line hashed from its text', () => {
  it('gets the hash linkHash gets from the parsed entry, however the line is spaced or repeats a key', () => {
    const seed = { n: 7 };
    for (let i = 0; i < 2000; i++) {
      let line = JSON.stringify({ seq: 1, prev: 'p'.repeat(64), x: value(seed, 0), y: value(seed, 0), hash: 'h', mac: 'm' });
      if (i % 3 === 0) line = line.replace(/,"/g, ' ,\t"').replace(/":/g, '" : ');
      if (i % 5 === 0) line = line.replace('"x":', '"x":[1,{"2":3}],"x":');
      assert.equal(lineLinkHash(line)?.hash, linkHash(JSON.parse(line)), line);
    }
  });

  it('leaves malformed lines to the JSON reader', () => {
    for (const line of ['{"seq":1,"prev":"p"', '{"seq":1,"prev":"p",}', '{"seq":01,"prev":"p"}', '[1]', '{"prev":"p"} x', '{"seq":1}'])
      assert.equal(lineLinkHash(line), undefined, line);
  });

  it('verifies a journal whose first entry holds 5,000 history entries, and names a changed one', () => {
    const history = Array.from({ length: 5000 }, (_, i) => ({
      from: '0',
      to: '1',
      at: `2026-01-01T00:00:${String(i % 60).padStart(2, '0')}Z`,
      gate_results: { passed: i, failed: 0 },
    }));
    const first = chainNext(undefined, { row: 'adopt', history, phase: '0' }, undefined);
    const second = chainNext(first, { row: 'gate', history: [], phase: '0' }, undefined);
    const text = `${JSON.stringify(first)}\n${JSON.stringify(second)}\n`;
    const seen: unknown[] = [];
    const scan = scanChain(text, 'journal.jsonl', (e) => seen.push(e.history), 1);
    assert.equal(scan.count, 2);
    assert.deepEqual(scan.kept, [second]);
    // The first entry was only hashed: its check sees the list empty.
    assert.deepEqual(seen, [[], []]);
    assert.throws(() => scanChain(text.replace('"passed":4321', '"passed":4322'), 'journal.jsonl', undefined, 1), /line 1 was changed after it was written/);
  });
});
