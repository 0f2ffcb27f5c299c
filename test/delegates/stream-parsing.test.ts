import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseAgyJson } from '../../delegates/agy/parse-output.ts';
import { boundText, createBoundedCapture } from '../../delegates/cli-process/bounded-capture.ts';
import { createLineSplitter } from '../../delegates/cli-process/line-splitter.ts';
import { isTransientFailure } from '../../delegates/cli-process/transient-failure.ts';
import { newCodexRunState, readCodexEvent } from '../../delegates/codex/parse-output.ts';

const enc = new TextEncoder();

/** Cuts bytes into chunks at the given offsets. */
const chunked = (bytes: Uint8Array, cuts: number[]) => {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let at = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.subarray(at, p));
    at = p;
  }
  return out;
};

describe('stream parsing', () => {
  it('splits lines the same way however the bytes are chunked, multi-byte characters included', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.string({ unit: 'grapheme' }).map((s) => s.replace(/[\r\n]/g, '')),
          { maxLength: 20 },
        ),
        fc.array(fc.nat(), { maxLength: 30 }),
        (lines, cuts) => {
          const seen: string[] = [];
          const splitter = createLineSplitter((l) => void seen.push(l), 1 << 20);
          for (const c of chunked(enc.encode(lines.join('\n')), cuts)) splitter.push(c);
          splitter.end();
          assert.deepEqual(
            seen,
            lines.filter((l) => l.trim() !== ''),
          );
        },
      ),
    );
  });

  it('skips a line over the limit and keeps reading the next ones', () => {
    const seen: string[] = [];
    const splitter = createLineSplitter((l) => void seen.push(l), 16);
    for (const c of chunked(enc.encode(`short\n${'x'.repeat(100)}\nafter\n`), [3, 20, 50, 90, 104])) splitter.push(c);
    splitter.end();
    assert.deepEqual(seen, ['short', 'after']);
    assert.equal(splitter.oversizeLines, 1);
  });

  it('keeps the whole stream when it fits, else head and tail with the byte count', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), fc.array(fc.nat(), { maxLength: 10 }), (bytes, cuts) => {
        const cap = createBoundedCapture(64, 64);
        for (const c of chunked(bytes, cuts)) cap.push(c);
        assert.equal(cap.bytes, bytes.length);
        assert.equal(cap.complete, bytes.length <= 128);
        if (cap.complete) assert.equal(cap.text(), new TextDecoder().decode(bytes));
        else assert.match(cap.text(), new RegExp(`${bytes.length - 128} bytes not kept in memory`));
      }),
    );
  });

  it('caps result text at the limit, keeping both ends', () => {
    const t = boundText(`${'a'.repeat(600)}${'b'.repeat(600)}`, 1000);
    assert.ok(t.startsWith('a'.repeat(500)) && t.endsWith('b'.repeat(500)));
    assert.match(t, /200 characters cut/);
  });

  it('reads the agy envelope even with raw newlines and tabs inside strings', () => {
    assert.deepEqual(parseAgyJson('{"status":"SUCCESS","response":"line 1\nline\t2 \\"q\\"\n"}'), { status: 'SUCCESS', response: 'line 1\nline\t2 "q"\n' });
    assert.equal(parseAgyJson('{"status":"SUCC'), undefined);
    assert.equal(parseAgyJson('[1,2]'), undefined);
  });

  it('treats a codex error followed by a completed turn as recovered, and one after it as a failure', () => {
    const recovered = newCodexRunState();
    for (const e of [
      { type: 'error', message: 'Reconnecting... 1/5' },
      { type: 'turn.completed', usage: {} },
    ])
      readCodexEvent(recovered, JSON.stringify(e));
    assert.equal(recovered.error, undefined);
    const broken = newCodexRunState();
    for (const e of [
      { type: 'turn.completed', usage: {} },
      { type: 'error', message: 'stream disconnected' },
    ])
      readCodexEvent(broken, JSON.stringify(e));
    assert.equal(broken.error, 'stream disconnected');
  });

  it('recognises rate limits, overload and network errors as transient, and nothing else', () => {
    for (const t of ['API Error: 429', 'Overloaded', 'rate_limit_error', 'read ECONNRESET', 'stream disconnected before completion', '503 Service Unavailable'])
      assert.ok(isTransientFailure(t), t);
    for (const t of ['permission denied', 'invalid model', 'authentication required', 'exit code 1']) assert.ok(!isTransientFailure(t), t);
  });
});
