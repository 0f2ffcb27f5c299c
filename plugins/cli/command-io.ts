import { SluiceError, terminalSafe, type CommandIO } from '../../core/index.ts';
import { createStatusLine, type StatusLine } from './status-line.ts';
import { colorsStream, createStyle } from './terminal-style.ts';

export interface CommandIOOptions {
  json: boolean;
  interactive: boolean;
  /** Applied to every line printed (progress lines may quote delegate output); default: unchanged. */
  redact?(text: string): string;
  /** The one writer of the status line; every line printed goes through it so none tears it. */
  statusLine?: StatusLine;
}

/** Human lines go to stdout (never under --json); diagnostics and progress to stderr. */
export function createCommandIO(o: CommandIOOptions): CommandIO {
  const style = createStyle(process.stdout);
  const redact = o.redact ?? ((text: string) => text);
  const status = o.statusLine ?? createStatusLine({ stream: process.stderr });
  // Lines quote file names, messages and tool output: nothing in them may steer the terminal.
  const out = (text: string) => terminalSafe(redact(text), { keepStyle: colorsStream(process.stdout) });
  const err = (text: string) => terminalSafe(redact(text), { keepStyle: colorsStream(process.stderr) });
  const ask = async (question: string): Promise<string> => {
    if (!o.interactive) {
      throw new SluiceError('USAGE', {
        message: `sluice needs an answer to "${question}" but stdin is not a terminal`,
        hint: 'pass the answer as a flag (see --help)',
      });
    }
    // readline loads only when a question is asked, not on every command.
    const { createInterface } = await import('node:readline/promises');
    const rl = createInterface({ input: process.stdin, output: process.stderr });
    try {
      return (await rl.question(err(question))).trim();
    } finally {
      rl.close();
    }
  };
  return {
    json: o.json,
    interactive: o.interactive,
    style,
    print(line) {
      if (!o.json) status.write(process.stdout, out(line));
    },
    warn(line) {
      status.write(process.stderr, err(line));
    },
    progress: (label) => status.open(redact(label)),
    async choose(question, choices, defaultChoice) {
      const list = choices.map((c, i) => `  ${i + 1}) ${c}${c === defaultChoice ? ' (default)' : ''}`).join('\n');
      for (;;) {
        const answer = await ask(`${question}\n${list}\n> `);
        if (answer === '' && defaultChoice !== undefined) return defaultChoice;
        const byNumber = choices[Number(answer) - 1];
        const byName = choices.find((c) => c.toLowerCase().startsWith(answer.toLowerCase()) && answer !== '');
        if (byNumber ?? byName) return (byNumber ?? byName)!;
        process.stderr.write(`Please answer 1-${choices.length}.\n`);
      }
    },
    ask,
    async confirm(question) {
      const answer = await ask(`${question} [y/N] `);
      return /^y(es)?$/i.test(answer);
    },
  };
}
