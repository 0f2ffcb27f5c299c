import { createQueueKey, defineCommand, QUEUE_KEY_ENV, queueKeyFile, readQueueKey, SluiceError } from '../../core/index.ts';
import { QueueKeyOutput } from './queue-outputs.ts';

/**
 * `sluice queue key`: the queue key of this machine, made when there is none (0600, never replaced),
 * and how to give the same key to the other machines. The key itself is printed only when asked, on a
 * terminal: a log or a CI transcript must not carry it.
 */
export const queueKeyCommand = defineCommand({
  name: 'queue key',
  summary: 'make this machine’s queue key (signs jobs and checkpoints) if it has none, and show how to install it on the others',
  options: [{ flags: '--show', description: 'also print the key itself (only on a terminal), to paste it on another machine' }],
  examples: ['sluice queue key', 'sluice queue key --json'],
  output: QueueKeyOutput,
  async run({ options }, { kernel, io }) {
    const { host } = kernel;
    const file = queueKeyFile(host);
    if (options.show && !io.interactive)
      throw new SluiceError('USAGE', { field: '--show', message: '--show prints the key only on a terminal; copy the file instead' });
    const created = await createQueueKey(host, file);
    // An existing key counts only if nobody else could have read or written it.
    await readQueueKey(host, file);
    const lines = [
      created ? `made the queue key ${file} (mode 0600)` : `the queue key is ${file} (kept as it was)`,
      '',
      'Every machine that runs `sluice worker` or `sluice lifecycle run --queue` needs this same file:',
      `  ssh OTHER 'mkdir -p -m 700 ~/.config/sluice' && scp -p ${file} OTHER:.config/sluice/queue.key`,
      `or put it anywhere owner-only and set ${QUEUE_KEY_ENV}=/path/to/queue.key for sluice there.`,
      'Whoever has it can make your workers run jobs and your runs adopt their work: keep it owner-only, out of Redis and out of every repository.',
    ];
    if (options.show) lines.push('', (await host.readText(file)).trim());
    return { exitCode: 0, data: { file, created }, human: lines.join('\n') };
  },
});
