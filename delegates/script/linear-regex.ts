import { RE2JS } from 're2js';
import type { Host, RegExpMatchResult } from '../../core/index.ts';

/**
 * `match:` patterns come from a file and run against prompts of any size. JavaScript's backtracking
 * engine can take exponential time on a pattern like `(a+)+$`, blocking the event loop so that
 * neither --timeout nor Ctrl-C works. Patterns run on re2js (RE2 ported to JavaScript: linear
 * time). The few RE2 cannot express (lookaround, backreferences) run on JavaScript's engine through
 * the Host (Host.execRegExp: a worker thread on Node) with a time limit, so a runaway one is stopped
 * instead of freezing sluice.
 */
export type PatternMatch = RegExpMatchResult;

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
export async function matchPattern(
  host: Host,
  source: string,
  flags: string,
  text: string,
  limitMs = BACKTRACKING_LIMIT_MS,
): Promise<PatternMatch | undefined> {
  const re = re2(source, flags);
  if (re === null) return matchBacktracking(host, source, flags, text, limitMs);
  const m = re.matcher(text);
  if (!m.find()) return undefined;
  const groups: (string | undefined)[] = [];
  for (let i = 0; i <= re.groupCount(); i++) groups.push(m.group(i) ?? undefined);
  const named: Record<string, string | undefined> = {};
  for (const name of Object.keys(re.namedGroups())) named[name] = m.group(name) ?? undefined;
  return { groups, named };
}

async function matchBacktracking(host: Host, source: string, flags: string, text: string, limitMs: number): Promise<PatternMatch | undefined> {
  const m = await host.execRegExp(source, flags, text, limitMs);
  if (m === 'timeout')
    throw new PatternTimeoutError(
      `took over ${limitMs / 1000} s on this prompt and was stopped (JavaScript's engine backtracks; RE2 syntax, without lookaround or backreferences, runs in linear time)`,
    );
  return m ?? undefined;
}
