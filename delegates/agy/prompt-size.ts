/**
 * agy keeps only about the first 192 KiB of a prompt it reads from stdin and drops the rest without
 * an error: the end of the prompt, usually the actual request, never reaches the model. Measured by
 * two independent agy wrappers (agy 1.2.1, 2026-09-11): a 213 KB prompt came back with "the last
 * ~21 KB was cut off" and 190 KB round-tripped intact; the other reports `<truncated N bytes>` at
 * roughly 190 KB. sluice sends prompts over 100 KiB on stdin (argv cannot hold them), so above
 * this size it warns. agy's own documentation states no limit.
 */
export const AGY_PROMPT_CUT_BYTES = 190_000;

/** The warning for a prompt agy is known to cut, or undefined. */
export function promptSizeWarning(prompt: string): string | undefined {
  const bytes = new TextEncoder().encode(prompt).length;
  if (bytes <= AGY_PROMPT_CUT_BYTES) return undefined;
  return `the prompt is ${bytes} bytes; agy is known to drop what comes after about ${AGY_PROMPT_CUT_BYTES} bytes of a prompt without saying so, so its end may never reach the model (shorten it, or put the bulk in a file the prompt names)`;
}
