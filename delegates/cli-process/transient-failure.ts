/**
 * Failure shapes worth retrying: rate limits, overloaded or unavailable APIs, and network errors.
 * Everything else (bad flags, auth, a refused tool, a timeout) fails at once: retrying would only
 * triple the wait.
 */
const TRANSIENT = [
  /rate[ _-]?limit/i,
  /too many requests/i,
  /\b429\b/,
  /overloaded/i,
  /\b529\b/,
  /\b50[234]\b/,
  /service unavailable/i,
  /bad gateway/i,
  /temporarily unavailable/i,
  /\bE(?:CONNRESET|CONNREFUSED|TIMEDOUT|NOTFOUND|AI_AGAIN|PIPE|NETUNREACH)\b/,
  /network (?:error|is unreachable)/i,
  /connection (?:reset|refused|closed|error)/i,
  /stream (?:disconnected|error)/i,
  /socket hang up/i,
  /fetch failed/i,
];

export function isTransientFailure(...texts: (string | undefined)[]): boolean {
  return texts.some((text) => text !== undefined && TRANSIENT.some((re) => re.test(text)));
}
