import { escapeHtml, trusted, type SafeHtml } from './html-escape.ts';

export type MarkdownRenderer = (source: string) => SafeHtml;

/**
 * markdown-it with raw HTML disabled (so an artifact cannot inject markup or script), no autolinking,
 * link targets vetted by markdown-it's validateLink (no javascript:/vbscript:/file:), and images
 * rendered as their alt text: a report must not load anything from outside itself.
 * Loaded lazily: only `sluice report` pays for markdown-it.
 */
export async function createMarkdownRenderer(): Promise<MarkdownRenderer> {
  const { default: MarkdownItCtor } = await import('markdown-it');
  const md = new MarkdownItCtor({ html: false, linkify: false, typographer: false });
  md.renderer.rules.image = (tokens, idx) => {
    const token = tokens[idx];
    const alt = token.children ? md.renderer.renderInlineAsText(token.children, md.options, {}) : token.content;
    return `<span class="img-alt">[image: ${escapeHtml(alt || token.attrGet('src') || '')}]</span>`;
  };
  const defaultLinkOpen = md.renderer.rules.link_open ?? ((tokens, idx, options, _env, self) => self.renderToken(tokens, idx, options));
  md.renderer.rules.link_open = (tokens, idx, options, env, self) => {
    tokens[idx].attrSet('rel', 'noopener noreferrer');
    return defaultLinkOpen(tokens, idx, options, env, self);
  };
  return (source) => trusted(md.render(source));
}
