import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createStatusLine, type Clock } from '../../plugins/cli/status-line.ts';

/** A clock moved by hand: `advance` fires every interval due, in time order. */
function manualClock() {
  let now = 0;
  const timers = new Set<{ ms: number; next: number; fn: () => void }>();
  const clock: Clock = {
    now: () => now,
    every(ms, fn) {
      const t = { ms, next: now + ms, fn };
      timers.add(t);
      return () => timers.delete(t);
    },
  };
  const advance = (ms: number) => {
    const end = now + ms;
    for (;;) {
      const due = [...timers].filter((t) => t.next <= end).sort((a, b) => a.next - b.next)[0];
      if (!due) break;
      now = due.next;
      due.next += due.ms;
      due.fn();
    }
    now = end;
  };
  return { clock, advance, pending: () => timers.size };
}

function fakeStream(isTTY: boolean) {
  const chunks: string[] = [];
  return { isTTY, columns: 80, chunks, write: (s: string) => chunks.push(s), text: () => chunks.join('') };
}

const CSI = '\u001b[';

describe('status line, off a terminal', () => {
  it('a long run prints a plain line at least every 20 s with what runs and for how long; quick work prints nothing', () => {
    const { clock, advance, pending } = manualClock();
    const err = fakeStream(false);
    const status = createStatusLine({ stream: err, clock, prefix: 'sluice lifecycle' });
    const quick = status.open('lifecycle: 0/1 committed');
    advance(19_000);
    quick.done();
    assert.equal(err.text(), '', 'done before the first interval: silent');
    assert.equal(pending(), 0, 'no timer left behind');

    const run = status.open('lifecycle: 0/3 committed');
    const queue = status.open('0 done, 2 running, 1 waiting');
    advance(20_000);
    run.update('lifecycle: 1/3 committed');
    advance(20_000);
    advance(25_000);
    const lines = err.text().split('\n').filter(Boolean);
    assert.deepEqual(lines, [
      'sluice lifecycle: lifecycle: 0/3 committed · 0 done, 2 running, 1 waiting (20 s)',
      'sluice lifecycle: lifecycle: 1/3 committed · 0 done, 2 running, 1 waiting (40 s)',
      'sluice lifecycle: lifecycle: 1/3 committed · 0 done, 2 running, 1 waiting (1 min 0 s)',
    ]);
    assert.ok(!err.text().includes(CSI) && !err.text().includes('\r'), 'no control characters in a log');
    run.done();
    queue.done();
    advance(60_000);
    assert.equal(err.text().split('\n').filter(Boolean).length, 3, 'nothing more once the work is done');
  });

  it('labels that quote delegate output cannot steer the log', () => {
    const { clock, advance } = manualClock();
    const err = fakeStream(false);
    const status = createStatusLine({ stream: err, clock, plainEveryMs: 1000 });
    status.open(`plan ${CSI}2J\rfeat`);
    advance(1000);
    assert.ok(!err.text().includes(`${CSI}2J`));
    status.stop();
  });
});

describe('status line, on a terminal', () => {
  it('one writer: the parts share one line, shown after a second, and printed lines clear it first and redraw it after', () => {
    const { clock, advance } = manualClock();
    const err = fakeStream(true);
    const out = fakeStream(true);
    const status = createStatusLine({ stream: err, clock });
    const command = status.open('lifecycle: 0/2 committed');
    const queue = status.open('0 done, 1 running, 0 waiting');
    advance(900);
    assert.equal(err.text(), '', 'a quick command stays silent');
    advance(300);
    const drawn = err.chunks.at(-1)!;
    assert.match(drawn, /^\r\u001b\[2K. lifecycle: 0\/2 committed · 0 done, 1 running, 0 waiting$/);
    const before = err.chunks.length;
    status.write(out, 'feat: plan done');
    assert.equal(err.chunks[before], `\r${CSI}2K`, 'the status line is cleared before the line is printed');
    assert.deepEqual(out.chunks, ['feat: plan done\n']);
    assert.match(err.chunks.at(-1)!, /lifecycle: 0\/2 committed/, 'and drawn again below it');
    command.done();
    queue.done();
    assert.equal(err.chunks.at(-1), `\r${CSI}2K`, 'the line is cleared when the last part is done');
    const settled = err.chunks.length;
    advance(5000);
    assert.equal(err.chunks.length, settled, 'no redraw after the work is done');
  });
});
