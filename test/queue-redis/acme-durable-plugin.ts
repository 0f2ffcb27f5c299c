/**
 * A project plugin (written into a test project as acme.mjs) with one durable job and a command that
 * dispatches it through `kernel.dispatcher`: the path `lifecycle run`/`tune` take, without their work.
 * The job logs `start ITEM PID ATTEMPT` / `end ITEM PID` / `abort ITEM PID` to work.log, waits for a
 * `release` file when held, and fails while a `fail-ITEM` file exists.
 */
export const acmeDurablePlugin = `
import { appendFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
export default {
  name: 'acme',
  setup(ctx) {
    ctx.registerDurableJob('acme:work', async ({ item, dir, hold }, job) => {
      const log = join(dir, 'work.log');
      appendFileSync(log, 'start ' + item + ' ' + process.pid + ' ' + job.attempt + '\\n');
      job.progress?.({ item, phase: 'started' });
      if (existsSync(join(dir, 'fail-' + item))) throw new Error('item ' + item + ' cannot be worked');
      while (hold && !existsSync(join(dir, 'release'))) {
        if (job.signal.aborted) {
          appendFileSync(log, 'abort ' + item + ' ' + process.pid + '\\n');
          throw new Error('aborted');
        }
        await sleep(20);
      }
      appendFileSync(log, 'end ' + item + ' ' + process.pid + '\\n');
      return { item, pid: process.pid, attempt: job.attempt, workdir: job.workdir ?? null };
    });
    ctx.registerCommand({
      name: 'acme-run',
      summary: 'work items as durable jobs',
      args: ['<items...>'],
      options: [
        { flags: '--hold <item>', description: 'this item waits for a release file' },
        { flags: '--key <key>', description: 'one key for all items' },
        { flags: '--needs <delegate>', description: 'a delegate the jobs need' },
      ],
      async run({ args, options }, { kernel, cwd, signal }) {
        const progress = [];
        const results = await Promise.all(
          args[0].map((item) =>
            kernel.dispatcher.run('acme:work', { item, dir: cwd, hold: options.hold === item }, {
              label: item, key: options.key, signal, needs: options.needs ? [options.needs] : undefined,
              onProgress: (p) => progress.push(p),
            }),
          ),
        );
        return { exitCode: 0, data: { kind: kernel.dispatcher.kind, results, progress }, human: results.map((r) => r.item + ' ' + r.pid).join('\\n') };
      },
    });
  },
};
`;
