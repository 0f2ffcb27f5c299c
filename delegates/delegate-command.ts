import { defineCommand, HostTooLargeError, SluiceError, type DelegateMode, type DelegateRequest, type Host, SANDBOX_OPTION } from '../core/index.ts';
import { DelegateOutput } from './delegate-output.ts';

const MAX_STDIN_PROMPT_BYTES = 64 * 1024 * 1024;

/** `-` as the prompt: read it from stdin, bounded so a runaway pipe cannot exhaust memory. */
async function readStdinPrompt(host: Host): Promise<string> {
  try {
    return new TextDecoder().decode(await host.readStdin(MAX_STDIN_PROMPT_BYTES));
  } catch (error) {
    if (error instanceof HostTooLargeError) throw new SluiceError('USAGE', { message: `the prompt on stdin is over ${MAX_STDIN_PROMPT_BYTES} bytes` });
    throw error;
  }
}

function parseTimeout(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds <= 0)
    throw new SluiceError('USAGE', { field: '--timeout', message: `--timeout must be a positive number of seconds, got ${JSON.stringify(value)}` });
  return Math.round(seconds * 1000);
}

export const delegateCommand = defineCommand({
  name: 'delegate',
  summary: 'run one prompt on a delegate backend (claude, agy, codex, shell, script) and print its answer',
  args: ['[prompt]'],
  options: [
    { flags: '--to <backend>', description: 'delegate backend (see `sluice plugins`)' },
    { flags: '--mode <mode>', description: 'write may edit files in the project; analysis is read-only', choices: ['write', 'analysis'], default: 'analysis' },
    { flags: '--timeout <seconds>', description: 'wall clock limit of the run (default: delegates.<backend>.timeout, else 600)' },
    { flags: '--model <model>', description: 'model name passed to the backend' },
    { flags: '--script <file>', description: 'script backend: the script file (relative to the project)' },
    { flags: '--reset', description: 'script backend: restart every `replies:` sequence of this project' },
    SANDBOX_OPTION,
  ],
  examples: [
    'sluice delegate --to claude --mode analysis "Summarise README.md"',
    'git diff | sluice delegate --to codex --mode analysis - --json',
    'sluice delegate --to script --script demo.yaml --mode write "Plan the login change"',
    'sluice delegate --to script --reset',
  ],
  output: DelegateOutput,
  async run({ args, options }, { kernel, cwd, io, signal }) {
    const backend = options.to as string | undefined;
    if (!backend) throw new SluiceError('USAGE', { message: `name a backend with --to (known: ${kernel.delegates.names().join(', ')})` });
    if (!kernel.delegates.has(backend)) {
      throw new SluiceError('DELEGATE_UNKNOWN', {
        message: `unknown delegate backend ${JSON.stringify(backend)} (known: ${kernel.delegates.names().join(', ')})`,
      });
    }
    let reset: string | undefined;
    if (options.reset) {
      if (backend !== 'script') throw new SluiceError('USAGE', { message: '--reset applies only to --to script' });
      const { resetSequences } = await import('./script/index.ts');
      reset = kernel.display(await resetSequences(kernel));
    }
    const raw = args[0] as string | undefined;
    if (raw === undefined) {
      if (reset !== undefined) return { exitCode: 0, data: { reset }, human: `reset scripted sequences (${reset})` };
      throw new SluiceError('USAGE', { message: 'give the prompt as an argument, or - to read it from stdin' });
    }
    const prompt = raw === '-' ? await readStdinPrompt(kernel.host) : raw;
    if (prompt.trim() === '') throw new SluiceError('USAGE', { message: 'the prompt is empty' });
    if (options.script !== undefined && backend !== 'script') throw new SluiceError('USAGE', { message: '--script applies only to --to script' });
    const request: DelegateRequest = {
      prompt,
      mode: options.mode as DelegateMode,
      cwd,
      label: `delegate ${backend}`,
      ...(options.timeout === undefined ? {} : { timeoutMs: parseTimeout(options.timeout) }),
      ...(options.model === undefined ? {} : { model: options.model as string }),
      ...(options.script === undefined ? {} : { extra: { script: options.script as string } }),
    };
    const result = await kernel.runDelegate(backend, request, { signal });
    for (const warning of result.warnings ?? []) io.warn(`${io.style.yellow('warning')} ${backend}: ${warning}`);
    if (result.status === 'ok') return { exitCode: 0, data: result, human: result.text };
    // Failure text goes to stderr only: a script reading stdout must not take a partial or error text for an answer.
    io.warn(
      `${io.style.red('error')} DELEGATE_FAILED: ${backend} run ${result.status}: ${result.error ?? 'no detail'} (transcript ${kernel.display(result.transcriptPath)})`,
    );
    // The one failure shape of every --json document: `error` is an object with a code.
    const message = result.error ?? `${backend} run ${result.status}`;
    return { exitCode: 1, data: { ...result, error: { code: 'DELEGATE_FAILED', message } } };
  },
});
