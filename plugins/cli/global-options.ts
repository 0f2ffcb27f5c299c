import { SluiceError } from '../../core/index.ts';

export interface GlobalOptions {
  json: boolean;
  cwd?: string;
  concurrency?: number;
  /** `--queue redis://…`: where top-level durable jobs go (else `queue:` in the config, else in-process). */
  queue?: string;
  /** `--queue-file FILE`: the queue URL (with its password) from an owner-only file, off the command line. */
  queueFile?: string;
}

/**
 * The options the kernel needs before commands exist (where the project is, how wide the queue is).
 * Commander parses them again later so they are accepted anywhere on the line and show in --help.
 */
export function readGlobalOptions(argv: readonly string[]): GlobalOptions {
  const out: GlobalOptions = { json: false };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') break;
    if (arg === '--json') out.json = true;
    const [name, inline] = arg.startsWith('--') && arg.includes('=') ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)] : [arg, undefined];
    if (name !== '--cwd' && name !== '--concurrency' && name !== '--queue' && name !== '--queue-file') continue;
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new SluiceError('USAGE', { message: `option ${name} needs a value` });
    if (name === '--cwd') out.cwd = value;
    else if (name === '--queue') out.queue = value;
    else if (name === '--queue-file') out.queueFile = value;
    else {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1 || n > 256)
        throw new SluiceError('USAGE', { message: `--concurrency must be an integer from 1 to 256, got ${JSON.stringify(value)}` });
      out.concurrency = n;
    }
  }
  return out;
}

/**
 * The command word of a command line (`status`, `lifecycle`), skipping options and the values of
 * the global options that take one. Undefined for help requests, so every command gets listed.
 */
export function commandWord(argv: readonly string[]): string | undefined {
  if (argv.includes('--help') || argv.includes('-h')) return undefined;
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i];
    if (arg === '--') return argv[i + 1];
    if (arg === '--cwd' || arg === '--concurrency' || arg === '--queue' || arg === '--queue-file') i++;
    else if (!arg.startsWith('-')) return arg === 'help' ? undefined : arg;
  }
  return undefined;
}
