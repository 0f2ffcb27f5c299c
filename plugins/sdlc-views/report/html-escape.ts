import { terminalSafe } from '../../../core/index.ts';

const ENTITIES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/**
 * Escapes text for HTML and SVG content and attribute values alike (quotes included). Control and
 * bidi characters become visible escapes: a browser honours U+202E too, so a name could read backwards.
 */
export function escapeHtml(value: unknown): string {
  return terminalSafe(String(value ?? '')).replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Markup that is already safe to embed: built by `html` or by markdown-it with raw HTML disabled. */
export class SafeHtml {
  constructor(readonly markup: string) {}
  toString(): string {
    return this.markup;
  }
}

/** Trusts markup produced by a renderer that escapes on its own (markdown-it with `html: false`). */
export const trusted = (markup: string): SafeHtml => new SafeHtml(markup);

/**
 * A tagged template for HTML and SVG: every interpolated value is escaped unless it is SafeHtml
 * (a nested `html` template); arrays are joined; null, undefined and false render as nothing.
 * Nothing from a file or the state can reach a page unescaped through it.
 */
export function html(strings: TemplateStringsArray, ...values: unknown[]): SafeHtml {
  let out = strings[0];
  values.forEach((value, i) => {
    out += render(value) + strings[i + 1];
  });
  return new SafeHtml(out);
}

function render(value: unknown): string {
  if (value === null || value === undefined || value === false) return '';
  if (Array.isArray(value)) return value.map(render).join('');
  if (value instanceof SafeHtml) return value.markup;
  return escapeHtml(value);
}
