import { SluiceError, type Kernel } from '../../core/index.ts';

/** The queue URL a command works on: `--queue` (the CLI puts it into the config) or `queue:` in sluice.config. */
export function requireQueueUrl(kernel: Kernel, command: string): string {
  const url = kernel.config.queue;
  if (url === undefined) throw new SluiceError('USAGE', { message: `${command} needs --queue redis://HOST:PORT[/DB] (or queue: in sluice.config.yaml)` });
  return url;
}
