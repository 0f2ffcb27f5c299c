import { SluiceError } from '../errors/sluice-error.ts';

/**
 * Job payloads must survive being sent to another process (a distributed backend), so they
 * may only hold JSON data: no functions, class instances, undefined, NaN, cycles.
 */
export function assertJsonPayload(job: string, payload: unknown): void {
  const problem = findNonJson(payload, '', new Set());
  if (problem) throw new SluiceError('JOB_PAYLOAD_NOT_JSON', { message: `payload of job ${job} is not JSON at ${problem}` });
}

function findNonJson(value: unknown, path: string, seen: Set<object>): string | undefined {
  switch (typeof value) {
    case 'string':
    case 'boolean':
      return undefined;
    case 'number':
      return Number.isFinite(value) ? undefined : path || '(root)';
    case 'object': {
      if (value === null) return undefined;
      if (seen.has(value)) return `${path || '(root)'} (cycle)`;
      const proto = Object.getPrototypeOf(value);
      if (!Array.isArray(value) && proto !== Object.prototype && proto !== null)
        return `${path || '(root)'} (${proto?.constructor?.name ?? 'object'} instance)`;
      seen.add(value);
      for (const [k, v] of Object.entries(value)) {
        if (v === undefined && !Array.isArray(value)) continue;
        const found = findNonJson(v, path ? `${path}.${k}` : k, seen);
        if (found) return found;
      }
      seen.delete(value);
      return undefined;
    }
    default:
      return path || '(root)';
  }
}
