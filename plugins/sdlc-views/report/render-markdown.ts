import { terminalSafe } from '../../../core/index.ts';
import { escapeHtml, trusted, type SafeHtml } from './html-escape.ts';

export type MarkdownRenderer = (source: string) => SafeHtml;

/**
 * markdown-it with raw HTML disabled (so an artifact cannot inject markup or script), no autolinking,
 * link targets vetted by markdown-it's validateLink (no javascript:/vbscript:/file:), and images
 * rendered as their alt text: a report must not load anything from outside itself. Headings move
 * down two levels so the page keeps one h1.
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
  // An artifact's headings sit under the page's own (h1 title, h2 sections): shift them two levels.
  md.core.ruler.push('shift_headings', (state) => {
    for (const token of state.tokens) {
      if (token.type === 'heading_open' || token.type === 'heading_close') token.tag = `h${Math.min(Number(token.tag.slice(1)) + 2, 6)}`;
    }
  });
  // Control and bidi characters are shown, not obeyed (CRLF line ends are just line ends).
  return (source) => trusted(md.render(terminalSafe(source.replace(/\r\n/g, '\n'))));
}
