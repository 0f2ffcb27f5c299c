import assert from 'node:assert/strict';
import { createHash, createHmac } from 'node:crypto';
import { describe, it } from 'node:test';
import { createMemoryHost, hmacSha256Hex, sameDigest, sha256Hex } from '../../core/index.ts';
import { createNodeHost } from '../../plugins/host-node/index.ts';

/** Records (journal chains, signed statements, frozen-file checksums) must hash the same on every host and as before. */
describe('sha256Hex and the hosts', () => {
  const samples: (string | Uint8Array)[] = ['', 'abc', 'é ü 日本 🎉', 'x'.repeat(1000), new Uint8Array(70_000).map((_, i) => i * 31)];

  it('gives the published digests', () => {
    assert.equal(sha256Hex(''), 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855');
    assert.equal(sha256Hex('abc'), 'ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('agrees with node:crypto, and both hosts agree with it, for text (as UTF-8) and bytes', () => {
    const node = createNodeHost();
    const memory = createMemoryHost();
    for (const data of samples) {
      const expected = createHash('sha256').update(data).digest('hex');
      assert.equal(sha256Hex(data), expected);
      assert.equal(node.sha256(data), expected);
      assert.equal(memory.sha256(data), expected);
    }
  });

  it('HMAC-SHA256 gives RFC 4231 test case 2 and agrees with node:crypto', () => {
    assert.equal(hmacSha256Hex('Jefe', 'what do ya want for nothing?'), '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843');
    assert.equal(hmacSha256Hex('k'.repeat(100), 'payload.é'), createHmac('sha256', 'k'.repeat(100)).update('payload.é').digest('hex'));
  });

  it('sameDigest: equal hex in either case is the same; other lengths, other digits or non-hex are not', () => {
    const d = sha256Hex('a');
    assert.equal(sameDigest(d, d), true);
    assert.equal(sameDigest(d.toUpperCase(), d), true);
    assert.equal(sameDigest(d.slice(0, -2), d), false);
    assert.equal(sameDigest(`${d.slice(0, -1)}${d.endsWith('0') ? '1' : '0'}`, d), false);
    assert.equal(sameDigest(`${d.slice(0, -2)}zz`, d), false);
    assert.equal(sameDigest('', ''), true);
  });
});
