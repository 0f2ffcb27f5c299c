import { SluiceError } from '../errors/sluice-error.ts';

/**
 * Top-level keys of sluice.config besides the core ones: the bundled workflows' sections. A third-party
 * plugin keeps its settings under a key that starts with `x-` (`x-acme: {...}`), so a typo in a core
 * key (`concurency: 4`) is an error instead of a silently ignored setting.
 */
export const WORKFLOW_CONFIG_SECTIONS = ['lifecycle', 'tune', 'sdlc', 'queue'] as const;

/** Edit distance (insert, delete, substitute, swap of neighbours): enough to suggest a key. */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** The closest known key, if it is close enough to be what was meant. */
export function suggestKey(key: string, known: readonly string[]): string | undefined {
  let best: { key: string; d: number } | undefined;
  for (const k of known) {
    const d = distance(key.toLowerCase(), k.toLowerCase());
    if (d <= Math.max(1, Math.floor(k.length / 3)) && (!best || d < best.d)) best = { key: k, d };
  }
  return best?.key;
}

/** Refuses a top-level key that nothing reads, naming the file and the key it probably meant. */
export function checkConfigKeys(raw: unknown, coreKeys: readonly string[], file: string): void {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return;
  const known = [...coreKeys, ...WORKFLOW_CONFIG_SECTIONS];
  for (const key of Object.keys(raw)) {
    if (known.includes(key) || key.startsWith('x-')) continue;
    const near = suggestKey(key, known);
    throw new SluiceError('CONFIG_INVALID', {
      file,
      field: key === '' ? '""' : key,
      message: `unknown setting ${JSON.stringify(key)}${near ? ` (did you mean ${near}?)` : ''}`,
      hint: `known settings: ${known.join(', ')}; a plugin's own settings go under a key starting with x-`,
    });
  }
}
