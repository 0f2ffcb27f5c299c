/** Milliseconds of an ISO 8601 timestamp; one without a zone (Python's naive isoformat) is read as UTC. */
export function timestampMs(value: string): number {
  const zoned = /(?:Z|[+-]\d{2}(?::?\d{2})?)$/i.test(value) ? value : `${value}Z`;
  return Date.parse(zoned.replace(' ', 'T'));
}

/** `2026-03-21 14:30 UTC`: the same on every machine, whatever its time zone. */
export function formatTimestamp(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const ms = timestampMs(value);
  if (Number.isNaN(ms)) return value;
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** `2026-03-21`: for narrow table columns. */
export function formatDate(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '—';
  const ms = timestampMs(value);
  return Number.isNaN(ms) ? value : new Date(ms).toISOString().slice(0, 10);
}
