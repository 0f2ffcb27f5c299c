import type { RegExpMatchResult } from '../../core/index.ts';

const WORKER = `
const { parentPort, workerData: { source, flags, text } } = require('node:worker_threads');
const m = new RegExp(source, flags.replace(/[gy]/g, '')).exec(text);
parentPort.postMessage(m ? { groups: [...m], named: { ...(m.groups ?? {}) } } : null);
`;

/**
 * Host.execRegExp for Node: the pattern runs in a worker thread, so a backtracking one that runs away
 * is terminated after `limitMs` instead of blocking the event loop (where neither --timeout nor
 * Ctrl-C could act).
 */
export async function execRegExpInWorker(source: string, flags: string, text: string, limitMs: number): Promise<RegExpMatchResult | null | 'timeout'> {
  // Loaded on first use: few scripts need a backtracking pattern, and every command starts the host.
  const { Worker } = await import('node:worker_threads');
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { source, flags, text } });
    const timer = setTimeout(() => {
      void worker.terminate();
      resolve('timeout');
    }, limitMs);
    worker.once('message', (m: RegExpMatchResult | null) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
