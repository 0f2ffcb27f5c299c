import { escapeControl, type ProgressHandle } from '../../core/index.ts';

const FRAMES = ['⠋', '⠙', '⠹', '⠸', '⠼', '⠴', '⠦', '⠧', '⠇', '⠏'];
const SHOW_AFTER_MS = 1000;

/**
 * One self-rewriting status line on stderr. It appears only after a second (quick commands stay
 * silent) and only on a terminal (logs and pipes never get control characters).
 */
export function createProgressLine(stream: NodeJS.WriteStream, label: string): ProgressHandle {
  if (!stream.isTTY) return { update() {}, done() {} };
  // Labels quote slugs and delegate output: one line, nothing that moves the cursor.
  let text = escapeControl(label);
  let frame = 0;
  let shown = false;
  const render = () => {
    shown = true;
    const width = Math.max(20, (stream.columns ?? 80) - 2);
    stream.write(`\r\x1b[2K${FRAMES[frame++ % FRAMES.length]} ${text}`.slice(0, width + 8));
  };
  const start = setTimeout(() => {
    render();
    ticker.ref();
  }, SHOW_AFTER_MS);
  start.unref();
  const ticker = setInterval(() => shown && render(), 120);
  ticker.unref();
  return {
    update(next) {
      text = escapeControl(next);
    },
    done() {
      clearTimeout(start);
      clearInterval(ticker);
      if (shown) stream.write('\r\x1b[2K');
    },
  };
}
