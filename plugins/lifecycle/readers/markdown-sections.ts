/**
 * Markdown artifacts (review and test reports, plans) read as a list of sections: each heading with
 * the text lines under it. List markers and table pipes are gone (a two-column row reads as
 * `key: value`), emphasis and code marks are dropped, and nothing inside a code fence or an HTML
 * comment counts as a heading or a line: a quoted example is not a result.
 */
export interface MarkdownSection {
  /** 1 for `#`, 2 for `##`, ...; 0 for the text before the first heading. */
  level: number;
  title: string;
  /** 1-based line of the heading in the file. */
  line: number;
  lines: string[];
  /** Top-level blocks under the heading, by kind: `bullet_list`, `paragraph`, `fence`, `table`, ... */
  blocks: string[];
}

export async function markdownSections(text: string): Promise<MarkdownSection[]> {
  const { default: MarkdownIt } = await import('markdown-it');
  const tokens = new MarkdownIt().parse(text, {});
  const sections: MarkdownSection[] = [{ level: 0, title: '', line: 1, lines: [], blocks: [] }];
  let current = sections[0];
  let row: string[] | undefined;
  for (let i = 0; i < tokens.length; i++) {
    const t = tokens[i];
    if (t.type === 'heading_open') {
      current = { level: Number(t.tag.slice(1)), title: plain(tokens[i + 1]?.content ?? ''), line: (t.map?.[0] ?? 0) + 1, lines: [], blocks: [] };
      sections.push(current);
      i += 2;
      continue;
    }
    if (t.level === 0 && (t.nesting === 1 || t.nesting === 0) && t.type !== 'inline') current.blocks.push(t.type.replace(/_open$/, ''));
    if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close' && row) {
      if (row.length >= 2) current.lines.push(`${row[0]}: ${row[1]}`);
      row = undefined;
    } else if (t.type === 'inline') {
      if (row) row.push(plain(t.content));
      else current.lines.push(...t.content.split('\n').map(plain).filter(Boolean));
    }
  }
  return sections;
}

/** Emphasis, code marks and leading emoji are decoration, not content. */
export function plain(s: string): string {
  return s
    .replace(/[*`]/g, '')
    .replace(/^[^\p{L}\p{N}[<]+/u, '')
    .trim();
}

/** `Key: value` lines of a section, keys lowercased with single spaces; a repeated key keeps every value. */
export function keyValues(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines) {
    const kv = /^([\p{L}][\p{L}\p{N} _/-]*?)\s*[:：]\s*(.*)$/u.exec(line);
    if (!kv) continue;
    const key = kv[1].toLowerCase().replace(/[_-]+/g, ' ').replace(/\s+/g, ' ').trim();
    out.set(key, [...(out.get(key) ?? []), kv[2].trim()]);
  }
  return out;
}

/** Sections whose title, lowercased, starts with `prefix` (`final result` matches `Final Result (round 2)`). */
export function sectionsTitled(sections: readonly MarkdownSection[], prefix: string, levels: readonly number[] = [2, 3]): MarkdownSection[] {
  return sections.filter(
    (s) =>
      levels.includes(s.level) &&
      s.title
        .replace(/[:：]\s*$/, '')
        .trim()
        .toLowerCase()
        .startsWith(prefix),
  );
}

/**
 * Whether `marker` (e.g. `[NEEDS CLARIFICATION]`) appears as prose: not in a code span or fence and
 * not in an HTML comment, so a checklist that names the marker in backticks does not count.
 */
export async function hasProseMarker(text: string, marker: string): Promise<boolean> {
  const { default: MarkdownIt } = await import('markdown-it');
  for (const t of new MarkdownIt().parse(text, {})) {
    if (t.type !== 'inline') continue;
    for (const c of t.children ?? []) if (c.type === 'text' && c.content.toUpperCase().includes(marker.toUpperCase())) return true;
  }
  return false;
}
