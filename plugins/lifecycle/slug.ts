import { SluiceError } from '../../core/index.ts';

/** Where a requirement's artifacts live, by kind: `.prizmkit/<kind>/<slug>/`. */
export const ARTIFACT_KINDS = ['specs', 'bugfix', 'refactor'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

/** PrizmKit v4's requirement identity: 1–96 code points, at most 200 UTF-8 bytes (room for `.json`). */
export const MAX_SLUG_LENGTH = 96;
export const MAX_SLUG_BYTES = 200;
/** Unicode letters and decimal digits, ASCII `-` and `_`; a letter or digit at both ends. */
export const SLUG_PATTERN = /^[\p{L}\p{Nd}](?:[\p{L}\p{Nd}_-]*[\p{L}\p{Nd}])?$/u;

/**
 * A slug is a requirement's identity (PrizmKit v4: the artifact folder's name) and becomes a file name
 * and a folder name, so it must not be able to point anywhere else: no `.`, no separators, no NUL,
 * no control characters, bounded length. Letters may be any script's (`需求-12`), in NFC form so one
 * name has one spelling on disk.
 */
export function checkSlug(slug: unknown): string {
  const fail = (why: string) => new SluiceError('SLUG_INVALID', { field: 'slug', message: `slug ${JSON.stringify(slug)} ${why}` });
  if (typeof slug !== 'string' || slug === '') throw fail('is empty');
  if ([...slug].length > MAX_SLUG_LENGTH) throw fail(`is longer than ${MAX_SLUG_LENGTH} characters`);
  if (new TextEncoder().encode(slug).length > MAX_SLUG_BYTES) throw fail(`is longer than ${MAX_SLUG_BYTES} bytes in UTF-8`);
  if (slug.includes('\0')) throw fail('contains a NUL byte');
  if (slug.includes('/') || slug.includes('\\')) throw fail('contains a path separator');
  if (slug.includes('.')) throw fail('contains "."');
  if (slug.normalize('NFC') !== slug) throw fail('is not in Unicode NFC form');
  if (!SLUG_PATTERN.test(slug)) throw fail('must use only letters, digits, "-" and "_", with a letter or digit at both ends');
  return slug;
}

export function artifactDirFor(kind: ArtifactKind, slug: string): string {
  return `.prizmkit/${kind}/${checkSlug(slug)}`;
}
