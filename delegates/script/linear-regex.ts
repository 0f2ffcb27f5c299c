import { Worker } from 'node:worker_threads';
import { RE2JS } from 're2js';

/**
 * `match:` patterns come from a file and run against prompts of any size. JavaScript's backtracking
 * engine can take exponential time on a pattern like `(a+)+$`, blocking the event loop so that
 * neither --timeout nor Ctrl-C works. Patterns run on re2js (RE2 ported to JavaScript: linear
 * time). The few RE2 cannot express (lookaround, backreferences) run on JavaScript's engine in a
 * worker thread with a time limit, so a runaway one is stopped instead of freezing sluice.
 */
export interface PatternMatch {
  groups: (string | undefined)[];
  named: Record<string, string | undefined>;
}

export class PatternTimeoutError extends Error {}

/** How long a backtracking (non-RE2) pattern may run on one prompt. */
export const BACKTRACKING_LIMIT_MS = 5000;

const compiled = new Map<string, RE2JS | null>();

function re2(source: string, flags: string): RE2JS | null {
  const key = `${flags}/${source}`;
  if (compiled.has(key)) return compiled.get(key)!;
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  let re: RE2JS | null;
  try {
    re = RE2JS.compile(source, bits);
  } catch {
    re = null;
  }
  compiled.set(key, re);
  return re;
}

/** The first match of `source` in `text`, with its groups as RegExp.exec would give them, or undefined. */
export async function matchPattern(source: string, flags: string, text: string, limitMs = BACKTRACKING_LIMIT_MS): Promise<PatternMatch | undefined> {
  const re = re2(source, flags);
  if (re === null) return matchInWorker(source, flags, text, limitMs);
  const m = re.matcher(text);
  if (!m.find()) return undefined;
  const groups: (string | undefined)[] = [];
  for (let i = 0; i <= re.groupCount(); i++) groups.push(m.group(i) ?? undefined);
  const named: Record<string, string | undefined> = {};
  for (const name of Object.keys(re.namedGroups())) named[name] = m.group(name) ?? undefined;
  return { groups, named };
}

const WORKER = `
const { parentPort, workerData: { source, flags, text } } = require('node:worker_threads');
const m = new RegExp(source, flags.replace(/[gy]/g, '')).exec(text);
parentPort.postMessage(m ? { groups: [...m], named: { ...(m.groups ?? {}) } } : null);
`;

function matchInWorker(source: string, flags: string, text: string, limitMs: number): Promise<PatternMatch | undefined> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(WORKER, { eval: true, workerData: { source, flags, text } });
    const timer = setTimeout(() => {
      void worker.terminate();
      reject(
        new PatternTimeoutError(
          `took over ${limitMs / 1000} s on this prompt and was stopped (JavaScript's engine backtracks; RE2 syntax, without lookaround or backreferences, runs in linear time)`,
        ),
      );
    }, limitMs);
    worker.once('message', (m: PatternMatch | null) => {
      clearTimeout(timer);
      void worker.terminate();
      resolve(m ?? undefined);
    });
    worker.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
  });
}
