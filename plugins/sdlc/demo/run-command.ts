import { SluiceError, type CommandIO, type CommandOutcome, type Kernel, type Style } from '../../../core/index.ts';

const plain: Style = { bold: (s) => s, dim: (s) => s, red: (s) => s, green: (s) => s, yellow: (s) => s, cyan: (s) => s };

/** A non-interactive IO that keeps what a command prints, for callers that run commands in-process. */
export function quietIO(lines: string[] = []): CommandIO {
  return {
    json: false,
    interactive: false,
    style: plain,
    print: (line) => void lines.push(line),
    warn: (line) => void lines.push(line),
    progress: () => ({ update() {}, done() {} }),
    choose: () => Promise.reject(new SluiceError('USAGE', { message: 'no terminal to answer on' })),
    confirm: () => Promise.reject(new SluiceError('USAGE', { message: 'no terminal to answer on' })),
  };
}

/**
 * Runs a registered command exactly as the CLI would after parsing (same definition, same `run`),
 * turning a thrown SluiceError into the outcome the CLI would exit with.
 */
export async function runCommand(
  kernel: Kernel,
  name: string,
  args: (string | undefined)[],
  options: Record<string, unknown>,
  signal?: AbortSignal,
): Promise<CommandOutcome & { error?: SluiceError }> {
  const command = kernel.commands.require(name);
  try {
    return await command.run(
      { args, options },
      { kernel, host: kernel.host, cwd: kernel.projectRoot, io: quietIO(), signal: signal ?? new AbortController().signal },
    );
  } catch (error) {
    if (!(error instanceof SluiceError)) throw error;
    return { exitCode: error.exitCode, data: error.toJSON(), human: error.message, error };
  }
}
