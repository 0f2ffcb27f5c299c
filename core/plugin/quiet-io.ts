import { SluiceError } from '../errors/sluice-error.ts';
import type { CommandIO, Style } from './types.ts';

/** No colours: for output that is not a terminal's. */
export const plainStyle: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s };

/**
 * A non-interactive IO that keeps what a command prints, for callers that run commands in-process
 * (the demo, the MCP server): nothing reaches stdout, and a question is a USAGE error, never a hang.
 * `json` is what the command is told about its output (true: it need not render for people).
 */
export function quietIO(lines: string[] = [], o: { json?: boolean } = {}): CommandIO {
  return {
    json: o.json ?? false,
    interactive: false,
    style: plainStyle,
    print: (line) => void lines.push(line),
    warn: (line) => void lines.push(line),
    progress: () => ({ update() {}, done() {} }),
    choose: () => Promise.reject(new SluiceError('USAGE', { message: 'no terminal to answer on' })),
    confirm: () => Promise.reject(new SluiceError('USAGE', { message: 'no terminal to answer on' })),
  };
}
