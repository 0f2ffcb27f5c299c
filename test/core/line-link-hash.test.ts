import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chainNext, linkHash, scanChain } from '../../core/store/journal-chain.ts';
import { lineLinkHash } from '../../core/store/line-link-hash.ts';
import { NotFast, Utf8Sink, writeCanonicalText } from '../../core/store/canonical-json-text.ts';
import { canonicalJson } from '../../core/trust/trust-subject.ts';

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

describe('the in-place canonical writer', () => {
  const written = (text: string): string | 'gave up' => {
    const parts: Uint8Array[] = [];
    const out = new Utf8Sink((b) => parts.push(b.slice()));
    try {
      writeCanonicalText(text, 0, out);
    } catch (error) {
      if (error instanceof NotFast) return 'gave up';
      throw error;
    }
    out.flush();
    return Buffer.concat(parts).toString('utf8');
  };

  it('writes what canonicalJson writes, or gives up (never a different text)', () => {
    const seed = { n: 11 };
    let wrote = 0;
    for (let i = 0; i < 3000; i++) {
      const v = value(seed, 0);
      const got = written(JSON.stringify(v));
      if (got === 'gave up') continue;
      wrote++;
      assert.equal(got, canonicalJson(v));
    }
    assert.ok(wrote > 300, `wrote only ${wrote}`);
  });

  it('takes the entries sluice journals as they are: keys out of order, escapes, non-ASCII, emoji', () => {
    const entry = {
      to: '1',
      from: '0',
      at: '2026-01-01T00:00:00Z',
      why: 'line\n"quoted" \\ é 😀 \u2028',
      gate_results: { passed: 12, failed: 0, manual: -2 },
      ok: true,
      none: null,
      list: [],
    };
    assert.equal(written(JSON.stringify([entry, entry])), canonicalJson([entry, entry]));
  });

  it('gives up on what JSON.stringify would write otherwise', () => {
    for (const text of ['{"a":1,"a":2}', '{"b": 1}', '[1.5]', '[-0]', '[1e3]', '["\\u0041"]', '["\\/"]', '{"10":1}', '[12345678901234567]', '["\\ud800"]'])
      assert.equal(written(text), 'gave up', text);
  });
});
