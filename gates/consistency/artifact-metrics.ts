/**
 * Metrics read from artifacts for G5-consistency: lines such as `Budget: $120,000`,
 * `- **Timeline:** 12 weeks` or a table row `| Team size | 4 |`. These are the numbers a Discovery
 * or Requirements phase commits to; a later artifact stating another value is drift.
 */
export const ARTIFACT_METRIC_LABELS = ['budget', 'timeline', 'deadline', 'go-live date', 'launch date', 'team size', 'headcount'];

const LINE = new RegExp(
  `^\\s*(?:[-*+]\\s+)?(?:\\|\\s*)?(?:\\*\\*|__)?(${ARTIFACT_METRIC_LABELS.join('|')})(?:\\*\\*|__)?\\s*(?::|\\|)\\s*(?:\\*\\*|__)?\\s*(.+?)\\s*(?:\\|\\s*)?$`,
  'i',
);

/** A line without any label cannot match LINE: one cheap test passes over most lines of an artifact. */
const ANY_LABEL = new RegExp(ARTIFACT_METRIC_LABELS.join('|'), 'i');

export interface ArtifactMetric {
  key: string;
  value: string;
  line: number;
}

/** The first value of each metric label in one artifact, outside fenced code. */
export function readArtifactMetrics(text: string): ArtifactMetric[] {
  const found = new Map<string, ArtifactMetric>();
  let fenced = false;
  text.split(/\r?\n/).forEach((line, i) => {
    if ((line.includes('```') || line.includes('~~~')) && /^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !ANY_LABEL.test(line)) return;
    const m = LINE.exec(line);
    if (!m) return;
    const key = `artifact.${m[1].toLowerCase().replace(/[\s-]+/g, '_')}`;
    const value = m[2].replace(/^(\*\*|__)|(\*\*|__)$/g, '').trim();
    if (value && !found.has(key)) found.set(key, { key, value, line: i + 1 });
  });
  return [...found.values()];
}
