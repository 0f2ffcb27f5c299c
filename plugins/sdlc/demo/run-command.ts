import { quietIO, SluiceError, type CommandOutcome, type Kernel } from '../../../core/index.ts';

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
