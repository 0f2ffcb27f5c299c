/**
 * Text from data (file names, messages, names people typed, tool output) must never steer the
 * terminal: an ESC sequence can move the cursor and overwrite what was printed, a carriage return
 * can hide the start of a line, a bidi override can make `evil.yml` read as `lmy.live`. Each such
 * character is shown as a visible escape (`\x1b`, `\u202e`) instead.
 */

/**
 * C0 controls and DEL, C1 controls, the bidi embeddings/overrides/isolates and marks, and the
 * Unicode line and paragraph separators. Tab and newline are listed too: `escapeControl` escapes
 * them (a name is one line), `terminalSafe` keeps them (a printed block has lines).
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g;

const visible = (c: string) => {
  const code = c.charCodeAt(0);
  return code < 0x100 ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
};

/** One value as one safe line: every control character, newline included, becomes a visible escape. */
export function escapeControl(text: string): string {
  return text.replace(UNSAFE, visible);
}

/** The SGR codes sluice's own styles write (bold, dim, red, green, yellow, cyan and their resets). */
const OWN_STYLE = /^\u001b\[(?:0|1|2|22|31|32|33|36|39)m/;

/**
 * A block of output made safe for a terminal: newlines and tabs stay, sluice's own colour codes stay
 * when `keepStyle` is set (only the few it writes; data can at most recolour text with them),
 * every other control character is escaped.
 */
export function terminalSafe(text: string, o: { keepStyle?: boolean } = {}): string {
  return text.replace(UNSAFE, (c, offset: number) => {
    if (c === '\n' || c === '\t') return c;
    if (c === '\u001b' && o.keepStyle && OWN_STYLE.test(text.slice(offset, offset + 5))) return c;
    return visible(c);
  });
}

/** JSON text with the invisible reordering characters escaped (JSON.stringify escapes C0 but not these). */
export function jsonSafe(json: string): string {
  return json.replace(/[\u007f-\u009f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
