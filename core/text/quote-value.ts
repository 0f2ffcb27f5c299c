/**
 * What an error may say about a value it read from a file. Errors must not become a way to read
 * files (an agent allowed only sluice commands could point one at `.env` or a credential file), so a
 * value is quoted only when short, single-line and from a file inside the project; otherwise only
 * its kind and size are named. Quoted text still passes the secret redaction of every output sink.
 */
export const MAX_QUOTED_CHARS = 24;

export function describeValue(value: unknown, quote: boolean): string {
  if (typeof value === 'string') {
    if (quote && value.length <= MAX_QUOTED_CHARS && !/[\r\n]/.test(value)) return JSON.stringify(value);
    return `a string (${value.length} characters)`;
  }
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'number' || typeof value === 'boolean') return quote ? String(value) : `a ${typeof value}`;
  if (Array.isArray(value)) return `a list (${value.length} items)`;
  return typeof value === 'object' ? 'a mapping' : `a ${typeof value}`;
}

/** A schema issue as valibot reports it: a message that may end in `but received <the value>`. */
export interface IssueLike {
  message: string;
  received?: string;
  input?: unknown;
}

/** The issue's message with the value it received described, not copied (see describeValue). */
export function issueMessage(issue: IssueLike, quote: boolean): string {
  const { message, received } = issue;
  if (received === undefined || received === '' || !message.includes(received)) return message;
  return message.split(received).join(describeValue(issue.input, quote));
}
