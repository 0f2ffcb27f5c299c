/**
 * Stable, printable ids for results: `G7:scope-boundaries-are-unambiguous`. The id of a manual
 * result is what `sluice next --approve` takes, so it must not change between runs of the same phase.
 */
export function resultId(prefix: string, text: string, taken?: Set<string>): string {
  const words = text
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
    .split(' ')
    .filter(Boolean);
  let slug = '';
  for (const w of words) {
    if (slug.length + w.length + 1 > 48 && slug !== '') break;
    slug = slug ? `${slug}-${w}` : w;
  }
  let id = `${prefix}:${slug || 'check'}`;
  if (taken) {
    for (let n = 2; taken.has(id); n++) id = `${prefix}:${slug}-${n}`;
    taken.add(id);
  }
  return id;
}
