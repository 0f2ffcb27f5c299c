import { SluiceError } from '../../core/index.ts';

/** Where a requirement's artifacts live, by kind: `.prizmkit/<kind>/<slug>/`. */
export const ARTIFACT_KINDS = ['specs', 'bugfix', 'refactor'] as const;
export type ArtifactKind = (typeof ARTIFACT_KINDS)[number];

export const MAX_SLUG_LENGTH = 100;
const SLUG = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A slug becomes a file name and a folder name, so it must not be able to point anywhere else:
 * no `..`, no separators, no NUL, nothing a shell or a file system treats specially, bounded length.
 */
export function checkSlug(slug: unknown): string {
  const fail = (why: string) => new SluiceError('SLUG_INVALID', { field: 'slug', message: `slug ${JSON.stringify(slug)} ${why}` });
  if (typeof slug !== 'string' || slug === '') throw fail('is empty');
  if (slug.length > MAX_SLUG_LENGTH) throw fail(`is longer than ${MAX_SLUG_LENGTH} characters`);
  if (slug.includes('\0')) throw fail('contains a NUL byte');
  if (slug.includes('/') || slug.includes('\\')) throw fail('contains a path separator');
  if (slug.includes('..')) throw fail('contains ".."');
  if (!SLUG.test(slug)) throw fail('must start with a letter or digit and use only letters, digits, ".", "-" and "_"');
  return slug;
}

export function artifactDirFor(kind: ArtifactKind, slug: string): string {
  return `.prizmkit/${kind}/${checkSlug(slug)}`;
}
