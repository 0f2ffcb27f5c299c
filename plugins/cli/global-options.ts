import { SANDBOX_MODES, SluiceError, type SandboxMode } from '../../core/index.ts';

export interface GlobalOptions {
  json: boolean;
  cwd?: string;
  concurrency?: number;
  /** `--queue redis://…`: where top-level durable jobs go (else `queue:` in the config, else in-process). */
  queue?: string;
  /** `--sandbox auto|required|off` on the commands that start AI CLIs: wins over `sandbox:` in the config. */
  sandbox?: SandboxMode;
  /** `--queue-file FILE`: the queue URL (with its password) from an owner-only file, off the command line. */
  queueFile?: string;
}

/** Options read here, before commands exist, that take a value. */
const VALUED = new Set(['--cwd', '--concurrency', '--queue', '--queue-file', '--sandbox']);

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
    if (!VALUED.has(name)) continue;
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new SluiceError('USAGE', { message: `option ${name} needs a value` });
    if (name === '--cwd') out.cwd = value;
    else if (name === '--queue') out.queue = value;
    else if (name === '--sandbox') {
      if (!(SANDBOX_MODES as readonly string[]).includes(value))
        throw new SluiceError('USAGE', { field: '--sandbox', message: `--sandbox must be one of ${SANDBOX_MODES.join(', ')}, got ${JSON.stringify(value)}` });
      out.sandbox = value as SandboxMode;
    } else if (name === '--queue-file') out.queueFile = value;
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
    if (VALUED.has(arg)) i++;
    else if (!arg.startsWith('-')) return arg === 'help' ? undefined : arg;
  }
  return undefined;
}

/**
 * The first two words of the command (`lifecycle record`), found as `commandWord` finds the first:
 * the second is the next word that is not an option. Empty for help requests.
 */
export function commandWords(argv: readonly string[]): string[] {
  const first = commandWord(argv);
  if (first === undefined) return [];
  const rest = argv.slice(argv.indexOf(first) + 1);
  const second = rest.find((arg) => !arg.startsWith('-'));
  return second === undefined ? [first] : [first, second];
}
