import { escapeControl, type ProgressHandle } from '../../core/index.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SHOW_AFTER_MS = 1000;
const FRAME_MS = 120;
/** Off a terminal, a long run says it is alive at least this often (CI kills jobs silent for minutes). */
export const PLAIN_EVERY_MS = 20_000;

/** Time, injected so tests drive it by hand. */
export interface Clock {
  now(): number;
  /** Calls `fn` every `ms` until the returned function is called. */
  every(ms: number, fn: () => void): () => void;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  every(ms, fn) {
    const timer = setInterval(fn, ms);
    // Progress never keeps a finished command alive.
    timer.unref();
    return () => clearInterval(timer);
  },
};

export interface StatusStream {
  write(text: string): unknown;
  isTTY?: boolean;
  columns?: number;
}

/**
 * The one writer of the status line. Every source of progress (the command's own, the queue's job
 * counts) opens a part of it, and every other line printed while it shows goes through `write`, which
 * clears the status line first and redraws it after: nothing tears it. On a terminal it is a spinner
 * line rewritten in place, shown after a second; off a terminal (CI logs, pipes) it is a plain line,
 * printed every `plainEveryMs` while something runs, so a long run never looks hung.
 */
export interface StatusLine {
  open(text: string): ProgressHandle;
  write(stream: StatusStream, text: string): void;
  stop(): void;
}

export function createStatusLine(o: { stream: StatusStream; clock?: Clock; plainEveryMs?: number; prefix?: string }): StatusLine {
  const { stream } = o;
  const clock = o.clock ?? systemClock;
  const tty = stream.isTTY === true;
  const parts = new Map<number, string>();
  let nextId = 0;
  let frame = 0;
  let shown = false;
  let startedAt = 0;
  let stopTimer: (() => void) | undefined;

  const text = () => [...parts.values()].filter((t) => t !== '').join(' · ');
  const clear = () => {
    if (shown) stream.write('\r\x1b[2K');
    shown = false;
  };
  const render = () => {
    const width = Math.max(20, (stream.columns ?? 80) - 2);
    stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text()}`.slice(0, width + 8));
    shown = true;
  };
  const elapsed = () => {
    const s = Math.round((clock.now() - startedAt) / 1000);
    return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
  };
  const plain = () => stream.write(`${o.prefix ?? 'sluice'}: ${text() || 'working'} (${elapsed()})\n`);

  const start = () => {
    startedAt = clock.now();
    if (!tty) {
      stopTimer = clock.every(o.plainEveryMs ?? PLAIN_EVERY_MS, plain);
      return;
    }
    // A quick command stays silent: the spinner appears only once a second has passed.
    stopTimer = clock.every(FRAME_MS, () => {
      if (shown || clock.now() - startedAt >= SHOW_AFTER_MS) render();
    });
  };
  const end = () => {
    stopTimer?.();
    stopTimer = undefined;
    clear();
  };

  return {
    open(initial) {
      const id = nextId++;
      // Labels quote slugs and delegate output: one line, nothing that moves the cursor.
      parts.set(id, escapeControl(initial));
      if (parts.size === 1) start();
      return {
        update(next) {
          if (parts.has(id)) parts.set(id, escapeControl(next));
        },
        done() {
          if (!parts.delete(id)) return;
          if (parts.size === 0) end();
        },
      };
    },
    write(target, line) {
      const wasShown = shown;
      clear();
      target.write(line.endsWith('\n') ? line : `${line}\n`);
      if (wasShown) render();
    },
    stop() {
      parts.clear();
      end();
    },
  };
}
