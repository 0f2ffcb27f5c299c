/**
 * Two runs of the same command on the same state write the same file, but for the clock: ISO
 * timestamps (and run folder names made from them) are replaced, so states compare by content.
 */
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(?:\.\d+)?(?:Z|[+-]\d{2}:\d{2})$/;
const RUN_ID = /skill-tune-\d{8}-\d{6}(?:-\d+)?/g;

export function withoutTimes<T>(value: T): T {
  return JSON.parse(JSON.stringify(value), (_key, v: unknown) => (typeof v === 'string' ? (ISO.test(v) ? '<time>' : v.replace(RUN_ID, '<run>')) : v)) as T;
}
