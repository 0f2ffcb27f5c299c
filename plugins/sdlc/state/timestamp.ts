import * as v from 'valibot';

/**
 * An ISO 8601 date-time. sluice writes UTC with `Z`; files from other tools may carry an offset,
 * microseconds or no zone at all (Python's naive `isoformat()`), and are still read.
 */
export const TimestampSchema = v.pipe(
  v.string(),
  v.regex(/^\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:[.,]\d+)?)?(?:Z|[+-]\d{2}(?::?\d{2})?)?$/, 'expected an ISO 8601 timestamp'),
  v.description('ISO 8601 timestamp (sluice writes UTC, e.g. 2026-03-20T10:00:00.000Z).'),
);
