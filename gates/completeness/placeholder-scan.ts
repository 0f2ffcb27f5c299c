/**
 * Finds placeholder markers left in an artifact. Markers are whole tokens (`TODO` never matches
 * inside MASTODON), `...` inside a marker stands for any text on the line (`${...}` matches `${PORT}`),
 * matching is case-sensitive, and fenced or indented code and inline code spans are ignored, so a
 * documented `${PORT}` never trips the gate. A `WAIVED: who — why` line waives markers on itself and
 * on the line below it; a WAIVED line without both parts waives nothing and is reported.
 */
export const DEFAULT_PLACEHOLDER_MARKERS = ['TODO', 'TBD', 'FIXME', '${...}', '[placeholder]'];

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

const WAIVED = /^\W*WAIVED\W*:/;
const WAIVER = /^\W*WAIVED\W*:\s*(.+?)\s+(?:—|–|--|-)\s+(.+?)\s*$/;

/** Line numbers (0-based) inside fenced or indented code blocks, from a markdown parser. */
export type CodeLines = Set<number>;

export function scanPlaceholders(text: string, markers: readonly string[], codeLines: CodeLines = new Set()): PlaceholderScan {
  const patterns = markers.map((m) => ({ marker: m, re: markerRegExp(m) }));
  const lines = text.split(/\r?\n/);
  const scan: PlaceholderScan = { hits: [], waivers: [], badWaivers: [] };
  let openWaiver: { waiver: Waiver; until: number } | undefined;
  lines.forEach((raw, i) => {
    if (codeLines.has(i)) return;
    const line = raw.replace(/(`+)[^`]*?\1/g, '');
    if (WAIVED.test(line)) {
      const m = WAIVER.exec(line);
      if (m) {
        const waiver = { line: i + 1, who: m[1].trim(), why: m[2].trim(), markers: [] };
        scan.waivers.push(waiver);
        openWaiver = { waiver, until: i + 1 };
      } else scan.badWaivers.push({ line: i + 1, text: raw.trim() });
    }
    for (const { marker, re } of patterns) {
      const found = re.exec(line);
      if (!found) continue;
      const hit = { line: i + 1, marker, text: found[0] };
      if (openWaiver && i <= openWaiver.until) openWaiver.waiver.markers.push(hit);
      else scan.hits.push(hit);
    }
    if (openWaiver && i >= openWaiver.until) openWaiver = undefined;
  });
  return scan;
}

/** Lines of fenced (```/~~~) and indented code blocks, found by markdown-it (loaded lazily: only G2 needs it). */
export async function markdownCodeLines(text: string): Promise<CodeLines> {
  const { default: MarkdownIt } = await import('markdown-it');
  const tokens = new MarkdownIt().parse(text, {});
  const lines: CodeLines = new Set();
  for (const t of tokens) {
    if ((t.type === 'fence' || t.type === 'code_block') && t.map) for (let l = t.map[0]; l < t.map[1]; l++) lines.add(l);
  }
  return lines;
}
