/**
 * While a delegate runs, people see nothing of the CLI's output (it goes to the transcript). An
 * offline CLI retrying for minutes looks exactly like a hang, so the runner reports, every interval,
 * how long the run has taken, which attempt it is on and the last thing the CLI said.
 */
export const DEFAULT_HEARTBEAT_MS = 30_000;

export interface HeartbeatEvent {
  backend: string;
  label?: string;
  attempt: number;
  maxAttempts: number;
  elapsedMs: number;
  /** How long the CLI has printed nothing. */
  silentMs: number;
  /** The CLI's last output line, shortened (a JSON event as its type, subtype and error). */
  lastEvent?: string;
}

const MAX_PENDING_CHARS = 4096;

/** Keeps the last complete output line of a run, bounded, whatever the chunking. */
export function createLastLineTracker() {
  let pending = '';
  let last: string | undefined;
  return {
    push(text: string) {
      const lines = (pending + text).split(/\r?\n/);
      pending = (lines.pop() ?? '').slice(-MAX_PENDING_CHARS);
      const complete = lines.map((l) => l.trim()).filter(Boolean);
      if (complete.length) last = complete.at(-1);
    },
    get last(): string | undefined {
      return last === undefined ? undefined : describeEvent(last);
    },
  };
}

/** `{"type":"system","subtype":"api_retry","attempt":6,...,"error":"unknown"}` → `system api_retry attempt 6/10 (unknown)`. */
export function describeEvent(line: string): string {
  try {
    const e: unknown = JSON.parse(line);
    if (typeof e === 'object' && e !== null && !Array.isArray(e)) {
      const o = e as Record<string, unknown>;
      const str = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
      const parts = [str(o.type), str(o.subtype)].filter(Boolean);
      const attempt = str(o.attempt);
      if (attempt) parts.push(`attempt ${attempt}${str(o.max_retries) ? `/${str(o.max_retries)}` : ''}`);
      const error = str(o.error) ?? str((o.error as { message?: unknown } | undefined)?.message) ?? str(o.message);
      if (error) parts.push(`(${error.slice(0, 120)})`);
      if (parts.length) return parts.join(' ');
    }
  } catch {
    // not JSON: the line itself
  }
  return line.length > 160 ? `${line.slice(0, 157)}...` : line;
}
