import { RE2JS } from 're2js';

/**
 * `match:` patterns come from a file and run against prompts of any size. JavaScript's backtracking
 * engine can take exponential time on a pattern like `(a+)+$`, blocking the event loop so that
 * neither --timeout nor Ctrl-C works. re2js (RE2 ported to JavaScript) matches in linear time; the
 * price is RE2 syntax: no lookaround and no backreferences, which such a file is refused for.
 */
export interface LinearMatch {
  groups: (string | undefined)[];
  named: Record<string, string | undefined>;
}

export class UnsupportedPatternError extends Error {}

const cache = new Map<string, RE2JS>();

function compile(source: string, flags: string): RE2JS {
  const key = `${flags}/${source}`;
  let re = cache.get(key);
  if (re) return re;
  let bits = 0;
  if (flags.includes('i')) bits |= RE2JS.CASE_INSENSITIVE;
  if (flags.includes('s')) bits |= RE2JS.DOTALL;
  if (flags.includes('m')) bits |= RE2JS.MULTILINE;
  try {
    re = RE2JS.compile(source, bits);
  } catch (error) {
    const why = error instanceof Error ? error.message.replace(/^error parsing regexp: /, '') : String(error);
    throw new UnsupportedPatternError(`${why} (match: patterns use RE2 syntax, which runs in linear time: no lookahead, lookbehind or backreferences)`);
  }
  cache.set(key, re);
  return re;
}

/** The first match of `source` in `text`, with its groups as RegExp.exec would give them, or undefined. */
export function linearExec(source: string, flags: string, text: string): LinearMatch | undefined {
  const re = compile(source, flags);
  const m = re.matcher(text);
  if (!m.find()) return undefined;
  const groups: (string | undefined)[] = [];
  for (let i = 0; i <= re.groupCount(); i++) groups.push(m.group(i) ?? undefined);
  const named: Record<string, string | undefined> = {};
  for (const name of Object.keys(re.namedGroups())) named[name] = m.group(name) ?? undefined;
  return { groups, named };
}

/** Whether the pattern compiles under RE2 (the script schema's check). */
export function isLinearPattern(source: string, flags: string): boolean {
  try {
    compile(source, flags);
    return true;
  } catch {
    return false;
  }
}
