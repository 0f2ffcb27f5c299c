/**
 * Picks the line of a CLI's output that says what went wrong. CLIs end their stderr with hints
 * ("For more information, try '--help'"), stack frames or warnings, and print errors as JSON on
 * stdout; the last line is rarely the error. Messages are one line, at most 300 characters.
 */
const HINT = /^(?:for more information|try ['`"]?\S+ --help|run ['`"]?\S+ --help|usage:|see ['`"]?\S+ --help|\(use `|note:|hint:)/i;
const NOISE = /^(?:at\s|\^+$|[-=~]{3,}$|node:internal|\s*\}?\s*$)/;
const ERROR_WORDS =
  /\b(?:error|errors|failed|failure|fatal|denied|invalid|unauthori[sz]ed|forbidden|not (?:found|logged in|authenticated|supported|available)|cannot|can't|unable|refused|expired|missing|unknown (?:option|argument|flag)|unexpected argument|timed? ?out|no such)\b/i;

const clip = (line: string) => (line.length > 300 ? `${line.slice(0, 297)}...` : line);
const linesOf = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '' && !NOISE.test(l));

/** The message inside a JSON error line (`{"error":{"message":…}}`, `{"message":…}`, a claude `result`), or undefined. */
export function jsonErrorMessage(line: string): string | undefined {
  if (!line.startsWith('{')) return undefined;
  try {
    const o: unknown = JSON.parse(line);
    if (typeof o !== 'object' || o === null) return undefined;
    const r = o as Record<string, unknown>;
    const error = r.error as Record<string, unknown> | string | undefined;
    const candidates = [
      typeof error === 'object' && error !== null ? error.message : error,
      r.message,
      r.is_error === true ? r.result : undefined,
      r.short_error,
    ];
    const found = candidates.find((c): c is string => typeof c === 'string' && c.trim() !== '');
    return found === undefined ? undefined : clip(found.trim().split(/\r?\n/)[0]);
  } catch {
    return undefined;
  }
}

function isJson(line: string): boolean {
  if (!line.startsWith('{') && !line.startsWith('[')) return false;
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

/** The most telling line: the last one naming an error, else the last that is not a hint; JSON errors read as their message. */
export function meaningfulLine(text: string): string | undefined {
  // A JSON event that carries no error (a progress event, a whole result) is not a message; a broken one is.
  const lines = linesOf(text)
    .map((l) => jsonErrorMessage(l) ?? (isJson(l) ? undefined : l))
    .filter((l): l is string => l !== undefined);
  const useful = lines.filter((l) => !HINT.test(l));
  const pick = useful.findLast((l) => ERROR_WORDS.test(l)) ?? useful.at(-1);
  return pick === undefined ? undefined : clip(pick);
}
