/**
 * Finds placeholder markers left in an artifact. Markers are whole tokens (`TODO` never matches
 * inside MASTODON), `...` inside a marker stands for any text on the line (`${...}` matches `${PORT}`),
 * matching is case-sensitive, and fenced or indented code and inline code spans are ignored, so a
 * documented `${PORT}` never trips the gate. A `WAIVED: who — why` line waives the whole file, as the
 * reference plugin's waivers do; a WAIVED line without both parts waives nothing and is reported.
 */
/** The reference templates mark unfilled sections with `<!-- REQUIRED: … -->`; `PLACEHOLDER` and `[INSERT …]` are its markers too. */
export const DEFAULT_PLACEHOLDER_MARKERS = ['TODO', 'TBD', 'FIXME', '${...}', '[placeholder]', '<!-- REQUIRED:', 'PLACEHOLDER', '[INSERT...]'];

export interface PlaceholderHit {
  line: number;
  marker: string;
  text: string;
}

export interface Waiver {
  line: number;
  who: string;
  why: string;
  /** Markers it waived. */
  markers: PlaceholderHit[];
}

export interface PlaceholderScan {
  hits: PlaceholderHit[];
  waivers: Waiver[];
  /** WAIVED lines missing the who or the why. */
  badWaivers: { line: number; text: string }[];
}

const WORD = /[A-Za-z0-9_]/;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export function markerRegExp(marker: string): RegExp {
  const body = marker.split('...').map(escape).join('[^\\n]*?');
  const start = WORD.test(marker[0] ?? '') ? '(?<![A-Za-z0-9_])' : '';
  const end = WORD.test(marker[marker.length - 1] ?? '') ? '(?![A-Za-z0-9_])' : '';
  return new RegExp(`${start}${body}${end}`);
}

// The reference's forms: an optional bullet or quote, `WAIVED:` bold before or after the colon, then
// who and why split by an em/en dash, hyphen, comma or colon (typed by hand, so any of them).
const WAIVED = /^\s*(?:[-*>]\s*)?(?:\*\*|__)?WAIVED(?:\*\*|__)?\s*:/i;
const WAIVER = /^\s*(?:[-*>]\s*)?(?:\*\*|__)?WAIVED(?:\*\*|__)?\s*:\s*(?:\*\*|__)?\s*([^—–,:\-\n]+?)\s*[—–,:-]+\s*(\S.*?)\s*$/i;
/** Emphasis around a name or reason is markup, not part of it. */
const unemphasize = (s: string) => s.replace(/^[*_]+|[*_]+$/g, '').trim();

/** Line numbers (0-based) inside fenced or indented code blocks, from a markdown parser. */
export type CodeLines = Set<number>;

/**
 * Markers outside code, and the file's waivers. A valid waiver anywhere waives every marker of the
 * file (the artifact is deliberately unfinished and says who decided that); its markers are kept on
 * the waiver so the record shows what was let through.
 */
export function scanPlaceholders(text: string, markers: readonly string[], codeLines: CodeLines = new Set()): PlaceholderScan {
  const patterns = markers.map((m) => ({ marker: m, re: markerRegExp(m) }));
  // One pass of all markers at once tells a line with none (most lines of a filled artifact) apart.
  const anyMarker = patterns.length > 0 ? new RegExp(patterns.map((p) => `(?:${p.re.source})`).join('|')) : undefined;
  const lines = text.split(/\r?\n/);
  const scan: PlaceholderScan = { hits: [], waivers: [], badWaivers: [] };
  lines.forEach((raw, i) => {
    if (codeLines.has(i)) return;
    const line = raw.includes('`') ? raw.replace(/(`+)[^`]*?\1/g, '') : raw;
    if (WAIVED.test(line)) {
      const m = WAIVER.exec(line);
      const who = m ? unemphasize(m[1]) : '';
      const why = m ? unemphasize(m[2]) : '';
      if (who && why) scan.waivers.push({ line: i + 1, who, why, markers: [] });
      else scan.badWaivers.push({ line: i + 1, text: raw.trim() });
    }
    if (!anyMarker?.test(line)) return;
    for (const { marker, re } of patterns) {
      const found = re.exec(line);
      if (found) scan.hits.push({ line: i + 1, marker, text: found[0] });
    }
  });
  if (scan.waivers.length > 0) {
    scan.waivers[0].markers = scan.hits;
    scan.hits = [];
  }
  return scan;
}

/** Lines of fenced (```/~~~) and indented code blocks, found by markdown-it (loaded lazily: only G2 needs it). */
export async function markdownCodeLines(text: string): Promise<CodeLines> {
  // Without a fence marker or a line indented by 4 columns there is no code block: skip the parser.
  if (!/^ {0,3}(?:```|~~~)|^(?: {4}|\t)/m.test(text)) return new Set();
  const { default: MarkdownIt } = await import('markdown-it');
  const tokens = new MarkdownIt().parse(text, {});
  const lines: CodeLines = new Set();
  for (const t of tokens) {
    if ((t.type === 'fence' || t.type === 'code_block') && t.map) for (let l = t.map[0]; l < t.map[1]; l++) lines.add(l);
  }
  return lines;
}
